import { S } from '@/strings'
import { parseCoordinates } from '@/lib/coordinates'
import type { ProfileUpdate } from '@/lib/types'

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
    const coords = parseCoordinates(form.latitude, form.longitude)
    if (coords.error !== undefined) return { error: coords.error }
    body.latitude = coords.latitude
    body.longitude = coords.longitude
  }
  if (form.password) {
    if (form.password.length < 8) return { error: S.passwordTooShort }
    body.password = form.password
  }
  return { body }
}
