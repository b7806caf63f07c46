import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { adminKeys } from './keys'
import type { Live } from '@/lib/types'

/** The dispatcher's map follows the fleet every 5 s while the tab is visible. */
export const LIVE_POLL_MS = 5000

/** A part of the map, in degrees (west may be greater than east across the antimeridian). */
export interface View {
  south: number
  west: number
  north: number
  east: number
}

/** Where the map was left: its middle and zoom, restored as they were. */
export interface SavedView {
  center: [number, number]
  zoom: number
}

/** The map's view as the route's `bbox`: minLat,minLng,maxLat,maxLng, in range, 5 decimals (about 1 m). */
export function toBbox(view: View): string {
  const clamp = (v: number, limit: number) => Math.min(limit, Math.max(-limit, v))
  // A view wider than the world (zoomed far out) is the whole world.
  const whole = view.east - view.west >= 360
  const west = whole ? -180 : clamp(view.west, 180)
  const east = whole ? 180 : clamp(view.east, 180)
  return [clamp(view.south, 90), west, clamp(view.north, 90), east].map((v) => Number(v.toFixed(5))).join(',')
}

const VIEW_KEY = 'admin.liveView'

/** The dispatcher's last view on this browser, if any (and if it reads as one). */
export function loadView(): SavedView | null {
  try {
    const v = JSON.parse(localStorage.getItem(VIEW_KEY) ?? 'null') as SavedView | null
    const ok = (n: unknown, limit: number) => typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= limit
    if (v && Array.isArray(v.center) && ok(v.center[0], 90) && ok(v.center[1], 360) && ok(v.zoom, 25)) return v
  } catch {
    // Unreadable: open on the fleet instead.
  }
  return null
}

export function saveView(view: SavedView) {
  try {
    localStorage.setItem(VIEW_KEY, JSON.stringify(view))
  } catch {
    // Storage full or denied: the map still works, it only forgets.
  }
}

/** The box holding every ambulance and pickup of an answer (null: none), a little wider than a single point. */
export function extentOf(live: Live): View | null {
  const points = [
    ...live.ambulances.flatMap((a) => (a.position ? [[a.position.latitude, a.position.longitude] as const] : [])),
    ...live.openBookings.flatMap((b) => (b.pickup ? [[b.pickup.latitude, b.pickup.longitude] as const] : [])),
  ]
  if (points.length === 0) return null
  const lats = points.map((p) => p[0])
  const lngs = points.map((p) => p[1])
  const pad = 0.02
  return {
    south: Math.max(-90, Math.min(...lats) - pad),
    west: Math.max(-180, Math.min(...lngs) - pad),
    north: Math.min(90, Math.max(...lats) + pad),
    east: Math.min(180, Math.max(...lngs) + pad),
  }
}

/** Where the fleet is: the whole world's answer (no `bbox`), asked once when the page has no view to open on. */
export function useFleet(enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.live('world'),
    queryFn: () => call('GET /admin/live'),
    enabled,
    staleTime: Infinity,
  })
}

export function useLive(bbox: string | null) {
  return useQuery({
    queryKey: adminKeys.live(bbox ?? ''),
    queryFn: () => call('GET /admin/live', { query: { bbox: bbox ?? '' } }),
    enabled: bbox !== null,
    // Moving the map keeps the last markers until the new ones come.
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: false,
  })
}
