// Loaded lazily (Leaflet is ~40 kB gzip): only the nearest-hospitals screen needs it.
import { useMemo } from 'react'
import { CircleMarker, Popup, Tooltip } from 'react-leaflet'
import { Link } from 'react-router'
import { BaseMap, FitBounds, LegendItem, type Point } from '@/components/map/BaseMap'
import { formatDistance } from '@/lib/format'
import type { NearestHospital } from '@/lib/types'
import { S } from '@/strings'

/** The search position (blue) and the hospitals found (red; the closest larger). */
export default function HospitalMap({ lat, lng, hospitals }: { lat: number; lng: number; hospitals: NearestHospital[] }) {
  const located = useMemo(
    () => hospitals.filter((h) => Number.isFinite(h.latitude) && Number.isFinite(h.longitude)),
    [hospitals],
  )
  const points = useMemo<Point[]>(
    () => [[lat, lng], ...located.map((h): Point => [h.latitude, h.longitude])],
    [lat, lng, located],
  )

  return (
    <BaseMap
      label={S.hospitalsPage.mapLabel}
      center={[lat, lng]}
      zoom={12}
      tilesFailedText={S.mapTilesFailed}
      legend={
        <>
          <LegendItem swatch="rounded-full border-2 border-white bg-blue-600 shadow">{S.hospitalsPage.youAreHere}</LegendItem>
          <LegendItem swatch="rounded-full border border-red-800 bg-red-500">{S.hospitalsPage.hospitalLegend}</LegendItem>
        </>
      }
    >
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
            <p>{formatDistance(h.distance)}{i === 0 ? ` · ${S.hospitalsPage.closest}` : ''}</p>
            <Link to={`/hospitals/${h.id}/ambulances`}>{S.hospitalsPage.viewAmbulances}</Link>
          </Popup>
        </CircleMarker>
      ))}
      <CircleMarker center={[lat, lng]} radius={9} pathOptions={{ color: '#ffffff', weight: 3, fillColor: '#2563eb', fillOpacity: 1 }}>
        <Tooltip>{S.hospitalsPage.youAreHere}</Tooltip>
      </CircleMarker>
    </BaseMap>
  )
}
