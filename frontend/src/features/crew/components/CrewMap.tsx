// Loaded lazily with Leaflet (components/map/BaseMap.tsx).
import { Marker } from 'react-leaflet'
import { BaseMap, FitBounds, LegendItem, markerIcon, type Point } from '@/components/map/BaseMap'
import type { Pickup, Position } from '@/lib/types'
import { S } from '@/strings'

const pickupIcon = markerIcon('pin', '#dc2626', { size: 40 })
const ambulanceIcon = markerIcon('ambulance', '#2563eb')

/** The pickup (red pin) and, when it reported, the crew's own ambulance (blue). */
export default function CrewMap({ pickup, position }: { pickup: Pickup; position: Position | null }) {
  const here: Point | null = position && position.source !== 'HOSPITAL' ? [position.latitude, position.longitude] : null
  const target: Point = [pickup.latitude, pickup.longitude]
  return (
    <BaseMap
      label={S.crew.mapLabel}
      center={target}
      zoom={15}
      className="h-64 w-full"
      zoomControl={false}
      legend={
        <>
          <LegendItem swatch="rounded-full bg-red-600">{S.crew.pickup}</LegendItem>
          {here && <LegendItem swatch="rounded-full bg-blue-600">{S.crew.youAreHere}</LegendItem>}
        </>
      }
    >
      <FitBounds points={here ? [target, here] : [target]} zoom={15} maxZoom={16} />
      <Marker position={target} icon={pickupIcon} title={S.crew.pickup} keyboard={false} />
      {here && <Marker position={here} icon={ambulanceIcon} title={S.crew.youAreHere} keyboard={false} />}
    </BaseMap>
  )
}
