import { S } from '../../strings'
import { parseCoordinate } from '../auth/validation'
import type { ProfileUpdate } from './api/profile'

export interface ProfileForm {
  email: string
  latitude: string
  longitude: string
  password: string
}

/** Spec 5: email required; the password only when typed; admins send no location. */
export function buildProfileUpdate(form: ProfileForm, admin: boolean): { body?: ProfileUpdate; error?: string } {
  const email = form.email.trim()
  if (!email) return { error: S.emailRequired }
  const body: ProfileUpdate = { email }
  if (!admin) {
    const latitude = parseCoordinate(form.latitude)
    const longitude = parseCoordinate(form.longitude)
    if (latitude === null || longitude === null) return { error: S.coordinatesNotNumbers }
    if (latitude < -90 || latitude > 90) return { error: S.latitudeRange }
    if (longitude < -180 || longitude > 180) return { error: S.longitudeRange }
    body.latitude = latitude
    body.longitude = longitude
  }
  if (form.password) {
    if (form.password.length < 8) return { error: S.passwordTooShort }
    body.password = form.password
  }
  return { body }
}
