// Loaded lazily with Leaflet (components/map/BaseMap.tsx).
import { latLngBounds } from 'leaflet'
import { useEffect, useRef } from 'react'
import { CircleMarker, Marker, Popup, Tooltip, useMap, useMapEvents } from 'react-leaflet'
import { Link } from 'react-router'
import { BaseMap, LegendItem, markerIcon, type Point } from '@/components/map/BaseMap'
import { ambulanceStatusLabel } from '@/lib/format'
import { freshness } from '@/lib/position'
import { S } from '@/strings'
import { stageLabel } from '@/features/booking'
import type { Live } from '@/lib/types'

/** Ambulances by status: green available, blue on duty, amber in maintenance. */
export const statusColor: Record<string, string> = { AVAILABLE: '#16a34a', ON_DUTY: '#2563eb', MAINTENANCE: '#d97706' }
const emergencyIcon = markerIcon('pin', '#b91c1c', { size: 34 })
const normalIcon = markerIcon('pin', '#ea580c', { size: 30 })

export interface View {
  south: number
  west: number
  north: number
  east: number
}

/** Fits the first points it gets (where the hospitals are), then tells each view the map settles on. */
function ViewReporter({ initial, onView }: { initial: Point[]; onView: (view: View) => void }) {
  const map = useMap()
  const fitted = useRef(false)
  const report = () => {
    const b = map.getBounds()
    onView({ south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() })
  }
  useMapEvents({ moveend: report })
  useEffect(() => {
    if (fitted.current) return
    fitted.current = true
    if (initial.length > 1) map.fitBounds(latLngBounds(initial), { padding: [24, 24], maxZoom: 13 })
    else if (initial.length === 1) map.setView(initial[0]!, 12)
    report()
    // Once, when the map is made: later pans are the dispatcher's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return null
}

/** The dispatcher's map: every ambulance coloured by status, open bookings' pickups as pins. */
export default function LiveMap({ live, initial, now, onView }: { live: Live | undefined; initial: Point[]; now: number; onView: (view: View) => void }) {
  return (
    <BaseMap
      label={S.live.mapLabel}
      center={initial[0] ?? [30.67, 74.33]}
      zoom={12}
      className="h-[28rem] w-full md:h-[36rem]"
      legend={
        <>
          <LegendItem swatch="rounded-full bg-green-600">{S.live.available}</LegendItem>
          <LegendItem swatch="rounded-full bg-blue-600">{S.live.onDuty}</LegendItem>
          <LegendItem swatch="rounded-full bg-amber-600">{S.live.maintenance}</LegendItem>
          <LegendItem swatch="rounded-full border-2 border-slate-500 bg-white">{S.live.notLive}</LegendItem>
          <LegendItem swatch="rounded-full bg-red-700">{S.live.emergencyPickup}</LegendItem>
          <LegendItem swatch="rounded-full bg-orange-600">{S.live.normalPickup}</LegendItem>
        </>
      }
    >
      <ViewReporter initial={initial} onView={onView} />
      {live?.ambulances.map((a) => {
        if (!a.position) return null
        const fresh = freshness(a.position, now)
        const color = statusColor[a.status] ?? '#64748b'
        return (
          <CircleMarker
            key={`a${a.id}`}
            center={[a.position.latitude, a.position.longitude]}
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
              {a.number} · {ambulanceStatusLabel[a.status] ?? a.status}
              <br />
              {fresh.text}
            </Tooltip>
          </CircleMarker>
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
              <p>{b.bookingStatus === 'ACTIVE' && b.tripStage ? stageLabel(b.tripStage) : stageLabel(b.bookingStatus)}</p>
              {b.pickup.landmark && <p>{b.pickup.landmark}</p>}
              <Link to={`/bookings/${b.id}`}>{S.track}</Link>
            </Popup>
          </Marker>
        ) : null,
      )}
    </BaseMap>
  )
}
