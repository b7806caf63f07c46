// Loaded lazily (Leaflet is ~40 kB gzip): only the nearest-hospitals screen needs it.
import 'leaflet/dist/leaflet.css'
import { latLngBounds, type LatLngExpression } from 'leaflet'
import { useEffect, useMemo, useState } from 'react'
import { CircleMarker, MapContainer, Popup, TileLayer, Tooltip, useMap } from 'react-leaflet'
import { Link } from 'react-router'
import { formatDistance } from '@/lib/format'
import type { NearestHospital } from '@/lib/types'
import { S } from '@/strings'

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
export default function HospitalMap({ lat, lng, hospitals }: { lat: number; lng: number; hospitals: NearestHospital[] }) {
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
    <div role="region" aria-label="Map of the nearest hospitals" className="isolate">
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
          <Tooltip>You are here</Tooltip>
        </CircleMarker>
      </MapContainer>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-x-4 gap-y-1 text-xs text-slate-600">
        <p className="flex flex-wrap gap-x-4 gap-y-1">
          <span className="inline-flex items-center gap-1.5">
            <span className="h-3 w-3 rounded-full border-2 border-white bg-blue-600 shadow" aria-hidden="true" /> You are here
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="h-3 w-3 rounded-full border border-red-800 bg-red-500" aria-hidden="true" /> Hospital (larger: the closest)
          </span>
        </p>
        {tilesFailed && <p role="status">{S.mapTilesFailed}</p>}
      </div>
    </div>
  )
}
