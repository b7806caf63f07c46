import type { BookingRequest, BookingType, Gender } from '@/lib/types'
import { S } from '@/strings'

export interface PatientForm {
  bookingType: BookingType
  name: string
  age: string
  gender: string
  condition: string
}

export interface BookingForm extends PatientForm {
  hospitalId: string
  ambulanceId: string
}

export type BookingField = 'hospitalId' | 'ambulanceId' | 'name' | 'age' | 'gender' | 'condition'

export interface BookingCheck {
  request?: BookingRequest
  error?: string
  /** The fields to mark invalid, first one to focus. */
  fields?: BookingField[]
}

export const emptyPatient: PatientForm = { bookingType: 'NORMAL', name: '', age: '', gender: '', condition: '' }
export const genders: Gender[] = ['Male', 'Female', 'Other']
export const MAX_NAME = 100
export const MAX_CONDITION = 500

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
  return {
    request: {
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

/** The form field a server error names (`patient.age` → `age`), if it is one of ours. */
export function fieldOf(serverField: string | undefined): BookingField | undefined {
  if (!serverField) return undefined
  const name = serverField.replace(/^patient\./, '')
  const known: BookingField[] = ['hospitalId', 'ambulanceId', 'name', 'age', 'gender', 'condition']
  return (known as string[]).includes(name) ? (name as BookingField) : undefined
}
