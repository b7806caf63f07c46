import { S } from '../../strings'
import type { RegisterInput } from './api/auth'

export type RegisterForm = Record<keyof RegisterInput, string>

export interface RegisterCheck {
  input?: RegisterInput
  error?: string
  /** The fields to mark invalid, first one to focus. */
  fields?: (keyof RegisterForm)[]
}

/** Spec 5: every field required (trimmed); latitude and longitude numeric, in range. */
export function validateRegister(form: RegisterForm): RegisterCheck {
  const values = Object.fromEntries(
    Object.entries(form).map(([k, v]) => [k, k === 'password' ? v : v.trim()]),
  ) as RegisterForm
  const blank = (Object.keys(values) as (keyof RegisterForm)[]).filter((k) => values[k].trim() === '')
  if (blank.length > 0) return { error: S.fillAllFields, fields: blank }
  const latitude = parseCoordinate(values.latitude)
  const longitude = parseCoordinate(values.longitude)
  if (latitude === null || longitude === null) {
    const fields: (keyof RegisterForm)[] = []
    if (latitude === null) fields.push('latitude')
    if (longitude === null) fields.push('longitude')
    return { error: S.coordinatesNotNumbers, fields }
  }
  if (latitude < -90 || latitude > 90) return { error: S.latitudeRange, fields: ['latitude'] }
  if (longitude < -180 || longitude > 180) return { error: S.longitudeRange, fields: ['longitude'] }
  return { input: { ...values, latitude, longitude } }
}

/** A decimal number, or null ("12abc" is not one, unlike parseFloat's answer). */
export function parseCoordinate(text: string): number | null {
  const t = text.trim()
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return null
  const n = Number(t)
  return Number.isFinite(n) ? n : null
}
