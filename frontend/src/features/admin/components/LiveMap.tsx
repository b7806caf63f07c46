// Loaded lazily with Leaflet (components/map/BaseMap.tsx).
import { latLngBounds } from 'leaflet'
import { Fragment, useEffect, useRef } from 'react'
import { CircleMarker, Marker, Popup, Tooltip, useMap, useMapEvents } from 'react-leaflet'
import { Link } from 'react-router'
import { BaseMap, LegendItem, markerIcon, type Point } from '@/components/map/BaseMap'
import { ambulanceStatusLabel } from '@/lib/format'
import { freshness } from '@/lib/position'
import { S } from '@/strings'
import { A } from '../strings'
import { tripLabel } from '@/lib/trip/status'
import type { Live } from '@/lib/types'
import type { SavedView, View } from '../api/live'

/** Ambulances by status: green available, blue on duty, amber in maintenance. */
export const statusColor: Record<string, string> = { AVAILABLE: '#16a34a', ON_DUTY: '#2563eb', MAINTENANCE: '#d97706' }
const emergencyIcon = markerIcon('pin', '#b91c1c', { size: 34 })
const normalIcon = markerIcon('pin', '#ea580c', { size: 30 })

/** Where the map opens: the dispatcher's last view as it was, or a box to fit (where the fleet is). */
export type Start = { saved: SavedView } | { fit: View }

/** Opens on `start`, then tells each view the map settles on (with its middle and zoom, to come back to). */
function ViewReporter({ start, onView }: { start: Start; onView: (view: View, saved: SavedView) => void }) {
  const map = useMap()
  const opened = useRef(false)
  const report = () => {
    const b = map.getBounds()
    const c = map.getCenter()
    onView({ south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() }, { center: [c.lat, c.lng], zoom: map.getZoom() })
  }
  useMapEvents({ moveend: report })
  useEffect(() => {
    if (opened.current) return
    opened.current = true
    if ('saved' in start) map.setView(start.saved.center, start.saved.zoom)
    else map.fitBounds(latLngBounds([start.fit.south, start.fit.west], [start.fit.north, start.fit.east]), { padding: [24, 24], maxZoom: 13 })
    report()
    // Once, when the map is made: later pans are the dispatcher's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return null
}

/** Where the dispatcher asked to look (a queue row chosen): `seq` tells a second choice of the same place. */
export interface Focus {
  point: Point
  seq: number
}

/** Centres the map on each new focus, zoomed in to street level if it was farther out. */
function Centre({ focus }: { focus: Focus | null }) {
  const map = useMap()
  useEffect(() => {
    if (focus) map.setView(focus.point, Math.max(map.getZoom(), 14))
  }, [map, focus])
  return null
}

/**
 * Tells Leaflet when its box changes size (the console's phone tabs show and hide it, a
 * window is resized): otherwise it keeps the old size and centres on the wrong place.
 */
function FollowSize() {
  const map = useMap()
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return
    const box = map.getContainer()
    // Hidden (the phone's Queue tab): left as it was, not shrunk to a point whose "view" would empty the lists.
    const observer = new ResizeObserver(() => {
      if (box.clientWidth > 0 && box.clientHeight > 0) map.invalidateSize()
    })
    observer.observe(box)
    return () => observer.disconnect()
  }, [map])
  return null
}

/** The dispatcher's map: every ambulance coloured by status (ringed when its crew is online), open bookings' pickups as pins. */
export default function LiveMap({
  live,
  start,
  now,
  onView,
  focus = null,
  className = 'h-[28rem] w-full md:h-[36rem]',
}: {
  live: Live | undefined
  start: Start
  now: number
  onView: (view: View, saved: SavedView) => void
  focus?: Focus | null
  className?: string
}) {
  const center: Point = 'saved' in start ? start.saved.center : [(start.fit.south + start.fit.north) / 2, (start.fit.west + start.fit.east) / 2]
  return (
    <BaseMap
      label={S.live.mapLabel}
      center={center}
      zoom={'saved' in start ? start.saved.zoom : 3}
      className={className}
      legend={
        <>
          {focus && <LegendItem swatch="rounded-full border-[3px] border-dashed border-violet-700 bg-white">{A().console.selected}</LegendItem>}
          <LegendItem swatch="rounded-full bg-green-600">{S.live.available}</LegendItem>
          <LegendItem swatch="rounded-full bg-blue-600">{S.live.onDuty}</LegendItem>
          <LegendItem swatch="rounded-full bg-amber-600">{S.live.maintenance}</LegendItem>
          <LegendItem swatch="rounded-full border-2 border-slate-500 bg-white">{S.live.notLive}</LegendItem>
          <LegendItem swatch="rounded-full border-[3px] border-slate-900 bg-slate-200">{S.live.presenceRing}</LegendItem>
          <LegendItem swatch="rounded-full bg-red-700">{S.live.emergencyPickup}</LegendItem>
          <LegendItem swatch="rounded-full bg-orange-600">{S.live.normalPickup}</LegendItem>
        </>
      }
    >
      <ViewReporter start={start} onView={onView} />
      <FollowSize />
      <Centre focus={focus} />
      {focus && (
        <CircleMarker center={focus.point} radius={22} interactive={false} pathOptions={{ color: '#7c3aed', weight: 4, dashArray: '6 4', fill: false }}>
          <Tooltip permanent direction="top" offset={[0, -20]}>
            {A().console.selected}
          </Tooltip>
        </CircleMarker>
      )}
      {/* The answer is most urgent first; drawn last, the most urgent are on top. */}
      {live?.ambulances.slice().reverse().map((a) => {
        if (!a.position) return null
        const fresh = freshness(a.position, now)
        const color = statusColor[a.status] ?? '#64748b'
        const at: Point = [a.position.latitude, a.position.longitude]
        return (
          <Fragment key={`a${a.id}`}>
          {/* A crew that can answer now: a dark ring around the status dot (decision 0020). */}
          {a.crewPresence === 'ONLINE' && (
            <CircleMarker center={at} radius={13} interactive={false} pathOptions={{ color: '#0f172a', weight: 3, fill: false }} />
          )}
          <CircleMarker
            center={at}
            radius={9}
            pathOptions={{
              color,
              weight: 3,
              fillColor: fresh.kind === 'standIn' ? '#ffffff' : color,
              fillOpacity: fresh.kind === 'live' ? 0.9 : 0.35,
              dashArray: fresh.kind === 'stale' ? '4 3' : undefined,
            }}
          >
            <Tooltip>
              {a.number} · {ambulanceStatusLabel[a.status] ?? a.status} · {S.presence[a.crewPresence]}
              <br />
              {fresh.text}
            </Tooltip>
          </CircleMarker>
          </Fragment>
        )
      })}
      {live?.openBookings.map((b) =>
        b.pickup ? (
          <Marker
            key={`b${b.id}`}
            position={[b.pickup.latitude, b.pickup.longitude]}
            icon={b.bookingType === 'EMERGENCY' ? emergencyIcon : normalIcon}
            title={S.live.booking(b.id)}
          >
            <Popup>
              <p className="font-semibold">{S.live.booking(b.id)}</p>
              <p>{tripLabel(b)}</p>
              {b.pickup.landmark && <p>{b.pickup.landmark}</p>}
              <Link to={`/bookings/${b.id}`}>{S.track}</Link>
            </Popup>
          </Marker>
        ) : null,
      )}
    </BaseMap>
  )
}
