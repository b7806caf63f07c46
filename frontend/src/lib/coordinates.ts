import { S } from '@/strings'

/** A decimal number, or null ("12abc" is not one, unlike parseFloat's answer). */
export function parseCoordinate(text: string): number | null {
  const t = text.trim()
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return null
  const n = Number(t)
  return Number.isFinite(n) ? n : null
}

export type CoordinateField = 'latitude' | 'longitude'

export type CoordinatesCheck =
  | { latitude: number; longitude: number; error?: undefined; fields?: undefined }
  | { error: string; fields: CoordinateField[] }

/** Typed latitude and longitude: both numbers, in range, or the message and the fields to mark. */
export function parseCoordinates(latitudeText: string, longitudeText: string): CoordinatesCheck {
  const latitude = parseCoordinate(latitudeText)
  const longitude = parseCoordinate(longitudeText)
  if (latitude === null || longitude === null) {
    const fields: CoordinateField[] = []
    if (latitude === null) fields.push('latitude')
    if (longitude === null) fields.push('longitude')
    return { error: S.coordinatesNotNumbers, fields }
  }
  if (latitude < -90 || latitude > 90) return { error: S.latitudeRange, fields: ['latitude'] }
  if (longitude < -180 || longitude > 180) return { error: S.longitudeRange, fields: ['longitude'] }
  return { latitude, longitude }
}
