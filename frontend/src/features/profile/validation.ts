import { S } from '@/strings'
import { parseCoordinates } from '@/lib/coordinates'
import type { ProfileUpdate } from '@/lib/types'

export interface ProfileForm {
  email: string
  latitude: string
  longitude: string
  password: string
  /** Asked for only when a new password is typed (docs/requirements.md, "Accounts and sign-in"). */
  currentPassword: string
}

export interface ProfileCheck {
  body?: ProfileUpdate
  error?: string
  /** The input the error is about, when it is one input's. */
  field?: 'currentPassword'
}

/**
 * docs/requirements.md, "Accounts and sign-in": email required; the password only when typed, and then the current one too;
 * location only for people who have one (users: admins and crew send none).
 */
export function buildProfileUpdate(form: ProfileForm, withLocation: boolean): ProfileCheck {
  const email = form.email.trim()
  if (!email) return { error: S.emailRequired }
  const body: ProfileUpdate = { email }
  if (withLocation) {
    const coords = parseCoordinates(form.latitude, form.longitude)
    if (coords.error !== undefined) return { error: coords.error }
    body.latitude = coords.latitude
    body.longitude = coords.longitude
  }
  if (form.password) {
    if (form.password.length < 8) return { error: S.passwordTooShort }
    if (!form.currentPassword) return { error: S.currentPasswordRequired, field: 'currentPassword' }
    body.password = form.password
    body.currentPassword = form.currentPassword
  }
  return { body }
}
