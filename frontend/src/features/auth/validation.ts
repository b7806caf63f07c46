import { parseCoordinates } from '@/lib/coordinates'
import { S } from '@/strings'
import type { RegisterInput } from './api/auth'

export type RegisterForm = Record<keyof RegisterInput, string>

export interface RegisterCheck {
  input?: RegisterInput
  error?: string
  /** The fields to mark invalid, first one to focus. */
  fields?: (keyof RegisterForm)[]
}

/** docs/requirements.md, "Accounts and sign-in": every field required (trimmed); latitude and longitude numeric, in range. */
export function validateRegister(form: RegisterForm): RegisterCheck {
  const values = Object.fromEntries(
    Object.entries(form).map(([k, v]) => [k, k === 'password' ? v : v.trim()]),
  ) as RegisterForm
  const blank = (Object.keys(values) as (keyof RegisterForm)[]).filter((k) => values[k].trim() === '')
  if (blank.length > 0) return { error: S.fillAllFields, fields: blank }
  const coords = parseCoordinates(values.latitude, values.longitude)
  if (coords.error !== undefined) return { error: coords.error, fields: coords.fields }
  return { input: { ...values, latitude: coords.latitude, longitude: coords.longitude } }
}

