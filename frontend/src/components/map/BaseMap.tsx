// The one Leaflet map frame (tiles, their failure, fitting the markers in view). Only
// maps loaded with lazy() import this file, so Leaflet stays out of the first load.
import 'leaflet/dist/leaflet.css'
import { divIcon, latLngBounds, type LatLngExpression } from 'leaflet'
import { useEffect, useState, type ReactNode } from 'react'
import { MapContainer, TileLayer, useMap } from 'react-leaflet'
import { S } from '@/strings'

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png'
const DEFAULT_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'

const tileUrl = import.meta.env.VITE_TILE_URL || DEFAULT_TILE_URL
const attribution = import.meta.env.VITE_TILE_ATTRIBUTION || DEFAULT_ATTRIBUTION

export type Point = [number, number]

/**
 * A map in a named region, with its legend and, when the tiles cannot be loaded, a
 * note that says so (the markers still show). Children are react-leaflet layers.
 */
export function BaseMap({
  label,
  center,
  zoom = 13,
  className = 'h-72 w-full md:h-96',
  tilesFailedText = S.mapTilesFailedMarkers,
  zoomControl = true,
  legend,
  children,
}: {
  label: string
  center: LatLngExpression
  zoom?: number
  className?: string
  tilesFailedText?: string
  /** Off where every control must be big (the crew's phone): fingers pinch instead. */
  zoomControl?: boolean
  legend?: ReactNode
  children: ReactNode
}) {
  const [tilesFailed, setTilesFailed] = useState(false)
  return (
    <div role="region" aria-label={label} className="isolate">
      <MapContainer
        center={center}
        zoom={zoom}
        scrollWheelZoom={false}
        zoomControl={zoomControl}
        className={`rounded-xl border border-slate-200 bg-slate-100 ${className}`}
      >
        <TileLayer url={tileUrl} attribution={attribution} eventHandlers={{ tileerror: () => setTilesFailed(true) }} />
        {children}
      </MapContainer>
      {(legend || tilesFailed) && (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-x-4 gap-y-1 text-xs text-slate-600">
          {legend && <p className="flex flex-wrap gap-x-4 gap-y-1">{legend}</p>}
          {tilesFailed && <p role="status">{tilesFailedText}</p>}
        </div>
      )}
    </div>
  )
}

/**
 * Room kept at the map's edges when fitting, in pixels: a pin stands 32 px above its
 * point; the tile attribution covers the bottom ~18 px; a round marker is 32 px wide.
 */
const FIT_PADDING = { paddingTopLeft: [32, 44] as Point, paddingBottomRight: [32, 40] as Point }

/**
 * Keeps every point in view when they change, and when the map's size changes (a phone
 * turned, a window resized), which keeps Leaflet's zoom otherwise. One point: centred at
 * `zoom`.
 */
export function FitBounds({ points, zoom = 13, maxZoom = 14 }: { points: Point[]; zoom?: number; maxZoom?: number }) {
  const map = useMap()
  // By value: a new array with the same points must not move the map again.
  const key = JSON.stringify(points)
  useEffect(() => {
    const at = JSON.parse(key) as Point[]
    const fit = () => {
      if (at.length === 1) map.setView(at[0]!, zoom)
      else if (at.length > 1) map.fitBounds(latLngBounds(at), { ...FIT_PADDING, maxZoom })
    }
    fit()
    map.on('resize', fit)
    return () => {
      map.off('resize', fit)
    }
  }, [map, key, zoom, maxZoom])
  return null
}

/** A legend entry: a swatch (its classes) and what it stands for. */
export function LegendItem({ swatch, children }: { swatch: string; children: ReactNode }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span className={`h-3 w-3 shrink-0 ${swatch}`} aria-hidden="true" /> {children}
    </span>
  )
}

const glyphs = {
  pin: '<path d="M12 22s-7-6.4-7-12a7 7 0 0 1 14 0c0 5.6-7 12-7 12z" fill="currentColor" stroke="#fff" stroke-width="1.5"/><circle cx="12" cy="10" r="2.6" fill="#fff"/>',
  ambulance:
    '<circle cx="12" cy="12" r="11" fill="currentColor" stroke="#fff" stroke-width="2"/><path d="M5 9h8v6H5zM13 11h3l2 2v2h-5z" fill="#fff"/><path d="M9 10v4M7 12h4" stroke="currentColor" stroke-width="1.4"/>',
  hospital:
    '<rect x="2" y="2" width="20" height="20" rx="4" fill="currentColor" stroke="#fff" stroke-width="2"/><path d="M12 6v12M6 12h12" stroke="#fff" stroke-width="3"/>',
} as const

/**
 * A marker icon drawn inline (Leaflet's default icon needs image files the bundler
 * does not ship). `color` is a CSS colour; `faded` for a position that is not live.
 * Presentation attributes, not a style attribute: the CSP (style-src 'self') drops those.
 */
export function markerIcon(kind: keyof typeof glyphs, color: string, { size = 32, faded = false } = {}) {
  const anchor: Point = kind === 'pin' ? [size / 2, size] : [size / 2, size / 2]
  return divIcon({
    className: 'map-glyph',
    html: `<svg viewBox="0 0 24 24" width="${size}" height="${size}" color="${color}" opacity="${faded ? 0.55 : 1}" aria-hidden="true">${glyphs[kind]}</svg>`,
    iconSize: [size, size],
    iconAnchor: anchor,
    popupAnchor: [0, -anchor[1] + 4],
  })
}
