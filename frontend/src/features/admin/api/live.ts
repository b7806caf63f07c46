import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { adminKeys } from './keys'
import type { Live } from '@/lib/types'

/** The dispatcher's map follows the fleet every 5 s while the tab is visible. */
export const LIVE_POLL_MS = 5000

/** The map's view as the route's `bbox`: minLat,minLng,maxLat,maxLng, in range, 5 decimals (about 1 m). */
export function toBbox(view: { south: number; west: number; north: number; east: number }): string {
  const clamp = (v: number, limit: number) => Math.min(limit, Math.max(-limit, v))
  // A view wider than the world (zoomed far out) is the whole world.
  const whole = view.east - view.west >= 360
  const west = whole ? -180 : clamp(view.west, 180)
  const east = whole ? 180 : clamp(view.east, 180)
  return [clamp(view.south, 90), west, clamp(view.north, 90), east].map((v) => Number(v.toFixed(5))).join(',')
}

export function useLive(bbox: string | null) {
  return useQuery({
    queryKey: adminKeys.live(bbox ?? ''),
    queryFn: () => api<Live>('/admin/live', { query: { bbox: bbox ?? '' } }),
    enabled: bbox !== null,
    // Moving the map keeps the last markers until the new ones come.
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_POLL_MS,
    refetchIntervalInBackground: false,
  })
}
