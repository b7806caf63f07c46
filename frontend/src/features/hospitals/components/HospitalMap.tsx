// Loaded lazily (Leaflet is ~40 kB gzip): only the nearest-hospitals screen needs it.
import 'leaflet/dist/leaflet.css'
import { latLngBounds, type LatLngExpression } from 'leaflet'
import { useEffect, useMemo, useState } from 'react'
import { CircleMarker, MapContainer, Popup, TileLayer, Tooltip, useMap } from 'react-leaflet'
import { Link } from 'react-router'
import { formatDistance } from '../../../lib/format'
import type { Hospital } from '../../../lib/types'
import { S } from '../../../strings'

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png'
const DEFAULT_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'

const tileUrl = import.meta.env.VITE_TILE_URL || DEFAULT_TILE_URL
const attribution = import.meta.env.VITE_TILE_ATTRIBUTION || DEFAULT_ATTRIBUTION

/** Keeps every marker in view when the search or its results change. */
function FitBounds({ points }: { points: [number, number][] }) {
  const map = useMap()
  useEffect(() => {
    if (points.length === 1) map.setView(points[0]!, 13)
    else if (points.length > 1) map.fitBounds(latLngBounds(points), { padding: [32, 32], maxZoom: 14 })
  }, [map, points])
  return null
}

/** The search position (blue) and the hospitals found (red; the closest larger). */
export default function HospitalMap({ lat, lng, hospitals }: { lat: number; lng: number; hospitals: Hospital[] }) {
  const [tilesFailed, setTilesFailed] = useState(false)
  const located = useMemo(
    () => hospitals.filter((h) => Number.isFinite(h.latitude) && Number.isFinite(h.longitude)),
    [hospitals],
  )
  const points = useMemo<[number, number][]>(
    () => [[lat, lng], ...located.map((h): [number, number] => [h.latitude, h.longitude])],
    [lat, lng, located],
  )
  const center: LatLngExpression = [lat, lng]

  return (
    <div role="region" aria-label="Map of the nearest hospitals" className="relative isolate">
      <MapContainer
        center={center}
        zoom={12}
        scrollWheelZoom={false}
        className="h-72 w-full rounded-xl border border-slate-200 bg-slate-100 md:h-96"
      >
        <TileLayer
          url={tileUrl}
          attribution={attribution}
          eventHandlers={{ tileerror: () => setTilesFailed(true) }}
        />
        <FitBounds points={points} />
        {located.map((h, i) => (
          <CircleMarker
            key={h.id}
            center={[h.latitude, h.longitude]}
            radius={i === 0 ? 11 : 8}
            pathOptions={{ color: '#991b1b', weight: 2, fillColor: i === 0 ? '#dc2626' : '#ef4444', fillOpacity: 0.85 }}
          >
            <Tooltip>{h.name}</Tooltip>
            <Popup>
              <p className="font-semibold">{h.name}</p>
              <p>{h.address}</p>
              <p>{formatDistance(h.distance)}{i === 0 ? ' · Closest' : ''}</p>
              <Link to={`/hospitals/${h.id}/ambulances`}>View Ambulances</Link>
            </Popup>
          </CircleMarker>
        ))}
        <CircleMarker
          center={center}
          radius={9}
          pathOptions={{ color: '#ffffff', weight: 3, fillColor: '#2563eb', fillOpacity: 1 }}
        >
          <Tooltip permanent direction="top" offset={[0, -10]}>You are here</Tooltip>
        </CircleMarker>
      </MapContainer>
      {tilesFailed && (
        <p role="status" className="pointer-events-none absolute inset-x-3 bottom-3 z-[1000] rounded-md bg-white/90 px-3 py-1.5 text-xs text-slate-700 shadow">
          {S.mapTilesFailed}
        </p>
      )}
    </div>
  )
}
