/** A point on the earth, in degrees. */
export interface LatLng {
  latitude: number
  longitude: number
}

const EARTH_RADIUS_M = 6_371_008.8

/** Great-circle distance in metres (haversine; exact enough for "did it move 20 m"). */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180
  const dLat = (b.latitude - a.latitude) * rad
  const dLng = (b.longitude - a.longitude) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))
}

/**
 * Turn-by-turn directions in the phone's maps app: Google's universal directions link
 * opens the Maps app on Android and iOS (where installed) and the web otherwise.
 * `to` is a point, or an address when only that is known.
 */
export function directionsUrl(to: LatLng | string): string {
  const destination = typeof to === 'string' ? to : `${to.latitude},${to.longitude}`
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}&travelmode=driving`
}
