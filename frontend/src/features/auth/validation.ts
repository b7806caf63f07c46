import { S } from '../../strings'
import type { RegisterInput } from './api/auth'

export type RegisterForm = Record<keyof RegisterInput, string>

/** Spec 5: every field required (trimmed); latitude and longitude numeric, in range. */
export function validateRegister(form: RegisterForm): { input?: RegisterInput; error?: string } {
  const values = Object.fromEntries(
    Object.entries(form).map(([k, v]) => [k, k === 'password' ? v : v.trim()]),
  ) as RegisterForm
  if (Object.values(values).some((v) => v.trim() === '')) return { error: S.fillAllFields }
  const latitude = parseCoordinate(values.latitude)
  const longitude = parseCoordinate(values.longitude)
  if (latitude === null || longitude === null) {
    return { error: 'Latitude and longitude must be numbers.' }
  }
  if (latitude < -90 || latitude > 90) return { error: 'Latitude must be between -90 and 90.' }
  if (longitude < -180 || longitude > 180) return { error: 'Longitude must be between -180 and 180.' }
  return { input: { ...values, latitude, longitude } }
}

/** A decimal number, or null ("12abc" is not one, unlike parseFloat's answer). */
export function parseCoordinate(text: string): number | null {
  const t = text.trim()
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return null
  const n = Number(t)
  return Number.isFinite(n) ? n : null
}
