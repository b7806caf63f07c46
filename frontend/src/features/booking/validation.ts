import { parseCoordinates } from '@/lib/coordinates'
import type { BookingRequest, BookingType, Gender, Patient, PickupRequest } from '@/lib/types'
import { S } from '@/strings'

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
  request?: BookingRequest
  error?: string
  /** The fields to mark invalid, first one to focus. */
  fields?: BookingField[]
}

export const emptyPatient: PatientForm = { bookingType: 'NORMAL', name: '', age: '', gender: '', condition: '' }
export const genders: Gender[] = ['Male', 'Female', 'Other']
// Also the contract's and the server's limits: tests/api/openapi.rs checks the three agree.
export const MAX_NAME = 100
export const MAX_CONDITION = 500
export const MAX_LANDMARK = 200
export const emptyPickup: PickupForm = { latitude: '', longitude: '', landmark: '' }

const isGender = (g: string): g is Gender => (genders as string[]).includes(g)

type Check<T> = { value?: T; error?: string; fields?: BookingField[] }

const blanks = (fields: [BookingField, string][]) => fields.filter(([, v]) => v.trim() === '').map(([k]) => k)
const patientFields = (form: PatientForm): [BookingField, string][] => [
  ['name', form.name],
  ['age', form.age],
  ['gender', form.gender],
  ['condition', form.condition],
]

/** The patient once no detail is blank (docs/requirements.md, "Booking"): age a whole number 0–150; gender Male, Female or Other. */
function patientOf(form: PatientForm): Check<Patient> {
  const ageText = form.age.trim()
  const age = Number(ageText)
  if (!/^\d{1,3}$/.test(ageText) || age > 150) return { error: S.ageRange, fields: ['age'] }
  if (!isGender(form.gender)) return { error: S.genderInvalid, fields: ['gender'] }
  return {
    value: {
      name: form.name.trim().slice(0, MAX_NAME),
      age,
      gender: form.gender,
      condition: form.condition.trim().slice(0, MAX_CONDITION),
    },
  }
}

/**
 * docs/requirements.md, "Booking": hospital, ambulance, patient name (non-blank), age, gender and condition
 * (non-blank) are required, else 'Please fill in all required fields.'; age 0–150;
 * gender Male, Female or Other; booking type NORMAL unless EMERGENCY.
 */
export function validateBooking(form: BookingForm): BookingCheck {
  const blank = blanks([['hospitalId', form.hospitalId], ['ambulanceId', form.ambulanceId], ...patientFields(form)])
  if (blank.length > 0) return { error: S.fillRequired, fields: blank }
  const hospitalId = Number(form.hospitalId)
  const ambulanceId = Number(form.ambulanceId)
  if (!Number.isSafeInteger(hospitalId) || hospitalId <= 0) return { error: S.fillRequired, fields: ['hospitalId'] }
  if (!Number.isSafeInteger(ambulanceId) || ambulanceId <= 0) return { error: S.fillRequired, fields: ['ambulanceId'] }
  const patient = patientOf(form)
  if (!patient.value) return { error: patient.error, fields: patient.fields }
  const pickup = parsePickup(form.pickup)
  if (pickup.error !== undefined) return { error: pickup.error, fields: ['pickup'] }
  return {
    request: {
      ...(pickup.value ? { pickup: pickup.value } : {}),
      hospitalId,
      ambulanceId,
      bookingType: form.bookingType === 'EMERGENCY' ? 'EMERGENCY' : 'NORMAL',
      patient: patient.value,
    },
  }
}

/**
 * The pin, or none: without coordinates the server takes the user's stored location
 * (and says `pickup` when there is none). A landmark alone has nowhere to go.
 */
export function parsePickup(form: PickupForm): { value?: PickupRequest; error?: string } {
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
 * An emergency's patient details, sent while the ambulance is on its way: PATCH
 * /booking/{id}/patient takes all four by the booking's rules and they replace the last.
 */
export function validatePatientDetails(form: PatientForm): Check<Patient> {
  const blank = blanks(patientFields(form))
  if (blank.length > 0) return { error: S.fillRequired, fields: blank }
  return patientOf(form)
}
