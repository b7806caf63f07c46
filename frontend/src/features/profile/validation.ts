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
  if (!email) return { error: 'Email is required.' }
  const body: ProfileUpdate = { email }
  if (!admin) {
    const latitude = parseCoordinate(form.latitude)
    const longitude = parseCoordinate(form.longitude)
    if (latitude === null || longitude === null) return { error: 'Latitude and longitude must be numbers.' }
    if (latitude < -90 || latitude > 90) return { error: 'Latitude must be between -90 and 90.' }
    if (longitude < -180 || longitude > 180) return { error: 'Longitude must be between -180 and 180.' }
    body.latitude = latitude
    body.longitude = longitude
  }
  if (form.password) {
    if (form.password.length < 8) return { error: 'The new password must be at least 8 characters.' }
    body.password = form.password
  }
  return { body }
}
