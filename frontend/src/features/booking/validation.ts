import { parseCoordinates } from '@/lib/coordinates'
import type { Pickup } from '@/lib/dispatch-types'
import type { BookingType, Gender } from '@/lib/types'
import { S } from '@/strings'
import type { BookRequest, PatientDetails } from './api/types'

export interface PatientForm {
  bookingType: BookingType
  name: string
  age: string
  gender: string
  condition: string
}

/** Where the ambulance should come: the map pin's coordinates (typed or dragged) and a landmark. */
export interface PickupForm {
  latitude: string
  longitude: string
  landmark: string
}

export interface BookingForm extends PatientForm {
  hospitalId: string
  ambulanceId: string
  pickup: PickupForm
}

export type BookingField = 'hospitalId' | 'ambulanceId' | 'name' | 'age' | 'gender' | 'condition' | 'pickup' | 'landmark'

export interface BookingCheck {
  request?: BookRequest
  error?: string
  /** The fields to mark invalid, first one to focus. */
  fields?: BookingField[]
}

export const emptyPatient: PatientForm = { bookingType: 'NORMAL', name: '', age: '', gender: '', condition: '' }
export const genders: Gender[] = ['Male', 'Female', 'Other']
export const MAX_NAME = 100
export const MAX_CONDITION = 500
export const MAX_LANDMARK = 200
export const emptyPickup: PickupForm = { latitude: '', longitude: '', landmark: '' }

const isGender = (g: string): g is Gender => (genders as string[]).includes(g)

/**
 * Spec 5: hospital, ambulance, patient name (non-blank), age, gender and condition
 * (non-blank) are required, else 'Please fill in all required fields.'; age 0–150;
 * gender Male, Female or Other; booking type NORMAL unless EMERGENCY.
 */
export function validateBooking(form: BookingForm): BookingCheck {
  const required: [BookingField, string][] = [
    ['hospitalId', form.hospitalId],
    ['ambulanceId', form.ambulanceId],
    ['name', form.name],
    ['age', form.age],
    ['gender', form.gender],
    ['condition', form.condition],
  ]
  const blank = required.filter(([, v]) => v.trim() === '').map(([k]) => k)
  if (blank.length > 0) return { error: S.fillRequired, fields: blank }
  const hospitalId = Number(form.hospitalId)
  const ambulanceId = Number(form.ambulanceId)
  if (!Number.isSafeInteger(hospitalId) || hospitalId <= 0) return { error: S.fillRequired, fields: ['hospitalId'] }
  if (!Number.isSafeInteger(ambulanceId) || ambulanceId <= 0) return { error: S.fillRequired, fields: ['ambulanceId'] }
  const ageText = form.age.trim()
  const age = Number(ageText)
  if (!/^\d{1,3}$/.test(ageText) || age > 150) return { error: S.ageRange, fields: ['age'] }
  if (!isGender(form.gender)) return { error: S.genderInvalid, fields: ['gender'] }
  const pickup = parsePickup(form.pickup)
  if (pickup.error !== undefined) return { error: pickup.error, fields: ['pickup'] }
  return {
    request: {
      ...(pickup.value ? { pickup: pickup.value } : {}),
      hospitalId,
      ambulanceId,
      bookingType: form.bookingType === 'EMERGENCY' ? 'EMERGENCY' : 'NORMAL',
      patient: {
        name: form.name.trim().slice(0, MAX_NAME),
        age,
        gender: form.gender,
        condition: form.condition.trim().slice(0, MAX_CONDITION),
      },
    },
  }
}

/**
 * The pin, or none: without coordinates the server takes the user's stored location
 * (and says `pickup` when there is none). A landmark alone has nowhere to go.
 */
export function parsePickup(form: PickupForm): { value?: Pickup; error?: string } {
  const landmark = form.landmark.trim().slice(0, MAX_LANDMARK)
  if (form.latitude.trim() === '' && form.longitude.trim() === '') {
    return landmark ? { error: S.pickup.needsPin } : {}
  }
  const coords = parseCoordinates(form.latitude, form.longitude)
  if (coords.error !== undefined) return { error: coords.error }
  return { value: { latitude: coords.latitude, longitude: coords.longitude, ...(landmark ? { landmark } : {}) } }
}

/** The form field a server error names (`patient.age` → `age`, `pickup.latitude` → `pickup`), if it is one of ours. */
export function fieldOf(serverField: string | undefined): BookingField | undefined {
  if (!serverField) return undefined
  if (serverField === 'pickup.landmark') return 'landmark'
  if (serverField === 'pickup' || serverField.startsWith('pickup.')) return 'pickup'
  const name = serverField.replace(/^patient\./, '')
  const known: BookingField[] = ['hospitalId', 'ambulanceId', 'name', 'age', 'gender', 'condition']
  return (known as string[]).includes(name) ? (name as BookingField) : undefined
}

/**
 * An emergency's patient details, sent while the ambulance is on its way: each one may
 * be left out (not known yet), at least one is given, and the given ones follow the
 * booking rules (age a whole number 0–150; gender Male, Female or Other).
 */
export function validatePatientDetails(form: PatientForm): { request?: PatientDetails; error?: string; fields?: BookingField[] } {
  const name = form.name.trim().slice(0, MAX_NAME)
  const condition = form.condition.trim().slice(0, MAX_CONDITION)
  const ageText = form.age.trim()
  if (!name && !condition && !ageText && !form.gender) return { error: S.patientDetails.needOne, fields: ['name'] }
  if (ageText && (!/^\d{1,3}$/.test(ageText) || Number(ageText) > 150)) return { error: S.ageRange, fields: ['age'] }
  if (form.gender && !isGender(form.gender)) return { error: S.genderInvalid, fields: ['gender'] }
  return {
    request: {
      ...(name ? { name } : {}),
      ...(ageText ? { age: Number(ageText) } : {}),
      ...(form.gender && isGender(form.gender) ? { gender: form.gender } : {}),
      ...(condition ? { condition } : {}),
    },
  }
}
