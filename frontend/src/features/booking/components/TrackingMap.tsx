// Loaded lazily with Leaflet (components/map/BaseMap.tsx).
import { Marker, Tooltip } from 'react-leaflet'
import { BaseMap, FitBounds, LegendItem, markerIcon, type Point } from '@/components/map/BaseMap'
import type { Freshness } from '@/lib/position'
import { S } from '@/strings'
import type { Tracking } from '@/lib/types'
import { isOpen } from '@/lib/trip/status'

/** What the map shows: the owner's tracking, or the shared view (no pickup there). */
export interface MapTrip {
  bookingStatus: Tracking['bookingStatus']
  hospital: Pick<Tracking['hospital'], 'name' | 'latitude' | 'longitude'>
  pickup?: Tracking['pickup']
  ambulance: Pick<Tracking['ambulance'], 'number' | 'position'>
}

const pickupIcon = markerIcon('pin', '#dc2626', { size: 40 })
const hospitalIcon = markerIcon('hospital', '#0f766e', { size: 28 })
const liveIcon = markerIcon('ambulance', '#2563eb', { size: 34 })
// Not live: the same ambulance, faded and grey.
const notLiveIcon = markerIcon('ambulance', '#64748b', { size: 34, faded: true })

/**
 * The ambulance, the pickup and the hospital, all kept in view. An ambulance that never
 * reported stands at its hospital; one whose position is stale is drawn faded. Once the
 * booking is final there is no ambulance on the map at all: it serves other patients, and
 * the server no longer says where it is (docs/requirements.md, "Tracking and family link"); not even its hospital stands in.
 */
export default function TrackingMap({ trip, fresh, label = S.tracking.mapLabel }: { trip: MapTrip; fresh: Freshness; label?: string }) {
  const h = trip.hospital
  const hospital: Point | null = h.latitude != null && h.longitude != null ? [h.latitude, h.longitude] : null
  const pickup: Point | null = trip.pickup ? [trip.pickup.latitude, trip.pickup.longitude] : null
  const pos = trip.ambulance.position
  const following = isOpen(trip.bookingStatus)
  const ambulance: Point | null = !following ? null : pos && fresh.kind !== 'standIn' ? [pos.latitude, pos.longitude] : hospital
  const points = [ambulance, pickup, hospital].filter((p): p is Point => p !== null)
  const ambulanceName = fresh.kind === 'standIn' ? S.tracking.ambulanceStandIn : `${S.tracking.ambulance} ${trip.ambulance.number}`
  const center = points[0] ?? [30.67, 74.33]

  return (
    <BaseMap
      label={label}
      center={center}
      className="h-72 w-full md:h-[28rem]"
      legend={
        <>
          {ambulance && <LegendItem swatch={`rounded-full ${fresh.kind === 'live' ? 'bg-blue-600' : 'bg-slate-400'}`}>{ambulanceName}</LegendItem>}
          {pickup && <LegendItem swatch="rounded-full bg-red-600">{S.tracking.pickup}</LegendItem>}
          {hospital && <LegendItem swatch="rounded-sm bg-teal-700">{S.tracking.hospital}</LegendItem>}
        </>
      }
    >
      <FitBounds points={points} zoom={14} maxZoom={15} />
      {hospital && (
        <Marker position={hospital} icon={hospitalIcon} title={h.name} keyboard={false}>
          <Tooltip>{h.name}</Tooltip>
        </Marker>
      )}
      {pickup && <Marker position={pickup} icon={pickupIcon} title={S.tracking.pickup} keyboard={false} />}
      {ambulance && (
        <Marker position={ambulance} icon={fresh.kind === 'live' ? liveIcon : notLiveIcon} title={ambulanceName} keyboard={false} zIndexOffset={1000} />
      )}
    </BaseMap>
  )
}
