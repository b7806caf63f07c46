// Loaded lazily with Leaflet (components/map/BaseMap.tsx).
import type { LeafletEventHandlerFnMap, Marker as LeafletMarker } from 'leaflet'
import { useEffect, useMemo } from 'react'
import { Marker, useMap, useMapEvents } from 'react-leaflet'
import { BaseMap, markerIcon, type Point } from '@/components/map/BaseMap'
import { S } from '@/strings'

const pinIcon = markerIcon('pin', '#dc2626', { size: 40 })

/** Follows the pin when it is placed or typed outside the view; a tap on the map moves it. */
function Follow({ pin, onMove }: { pin: Point | null; onMove: (at: Point) => void }) {
  const map = useMap()
  useMapEvents({ click: (e) => onMove([e.latlng.lat, e.latlng.lng]) })
  const lat = pin?.[0]
  const lng = pin?.[1]
  useEffect(() => {
    if (lat === undefined || lng === undefined) return
    if (!map.getBounds().contains([lat, lng])) map.setView([lat, lng], Math.max(map.getZoom(), 15))
  }, [map, lat, lng])
  return null
}

/** The pickup as a draggable pin; without one, the map waits at `fallback` for a tap. */
export default function PickupMap({ pin, fallback, onMove }: { pin: Point | null; fallback: Point; onMove: (at: Point) => void }) {
  const handlers = useMemo<LeafletEventHandlerFnMap>(
    () => ({
      dragend: (e) => {
        const at = (e.target as LeafletMarker).getLatLng()
        onMove([at.lat, at.lng])
      },
    }),
    [onMove],
  )
  return (
    <BaseMap label={S.pickup.mapLabel} center={pin ?? fallback} zoom={pin ? 15 : 12} className="h-56 w-full sm:h-64">
      <Follow pin={pin} onMove={onMove} />
      {pin && <Marker position={pin} draggable icon={pinIcon} title={S.pickup.pinTitle} eventHandlers={handlers} />}
    </BaseMap>
  )
}
