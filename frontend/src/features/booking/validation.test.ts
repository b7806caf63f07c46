import { describe, expect, it } from 'vitest'
import { keyFor } from './api/bookings'
import { emptyPatient, fieldOf, validateBooking, validatePatientDetails, type BookingForm, type PatientForm } from './validation'

const good: BookingForm = {
  hospitalId: '3',
  ambulanceId: '31',
  bookingType: 'NORMAL',
  name: '  Asha Devi ',
  age: '42',
  gender: 'Female',
  condition: ' Chest pain ',
  pickup: { latitude: '', longitude: '', landmark: '' },
}

describe('validateBooking', () => {
  it('builds the request: numbers for ids and age, trimmed text', () => {
    expect(validateBooking(good)).toEqual({
      request: {
        hospitalId: 3,
        ambulanceId: 31,
        bookingType: 'NORMAL',
        patient: { name: 'Asha Devi', age: 42, gender: 'Female', condition: 'Chest pain' },
      },
    })
  })

  it('sends the pin as the pickup, with a trimmed landmark when one is given', () => {
    const pinned = { ...good, pickup: { latitude: '30.7', longitude: ' 74.31', landmark: '  gate 2, blue house ' } }
    expect(validateBooking(pinned).request?.pickup).toEqual({ latitude: 30.7, longitude: 74.31, landmark: 'gate 2, blue house' })
    expect(validateBooking({ ...pinned, pickup: { ...pinned.pickup, landmark: '  ' } }).request?.pickup).toEqual({ latitude: 30.7, longitude: 74.31 })
  })

  it('sends no pickup without a pin (the server takes the stored location)', () => {
    expect(validateBooking(good).request).not.toHaveProperty('pickup')
  })

  it.each([
    [{ latitude: '', longitude: '', landmark: 'gate 2' }, 'Place the pickup on the map (or type its coordinates) to add a landmark.'],
    [{ latitude: '95', longitude: '74', landmark: '' }, 'Latitude must be between -90 and 90.'],
    [{ latitude: '30', longitude: '', landmark: '' }, 'Latitude and longitude must be numbers.'],
  ])('marks the pickup for %o', (pickup, error) => {
    expect(validateBooking({ ...good, pickup })).toEqual({ error, fields: ['pickup'] })
  })

  it('keeps EMERGENCY', () => {
    expect(validateBooking({ ...good, bookingType: 'EMERGENCY' }).request?.bookingType).toBe('EMERGENCY')
  })

  it.each(['hospitalId', 'ambulanceId', 'name', 'age', 'gender', 'condition'] as const)(
    "says 'Please fill in all required fields.' when %s is missing or blank",
    (field) => {
      const check = validateBooking({ ...good, [field]: '   ' })
      expect(check.request).toBeUndefined()
      expect(check.error).toBe('Please fill in all required fields.')
      expect(check.fields).toEqual([field])
    },
  )

  it('marks every missing field, in form order', () => {
    const check = validateBooking({ ...good, hospitalId: '', name: '', condition: '' })
    expect(check.error).toBe('Please fill in all required fields.')
    expect(check.fields).toEqual(['hospitalId', 'name', 'condition'])
  })

  it.each(['0', '150'])('accepts age %s', (age) => {
    expect(validateBooking({ ...good, age }).request?.patient.age).toBe(Number(age))
  })

  it.each(['-1', '151', '3.5', 'ten', '1e2'])('refuses age %s', (age) => {
    expect(validateBooking({ ...good, age })).toEqual({ error: 'Age must be a whole number from 0 to 150.', fields: ['age'] })
  })

  it('refuses a gender other than Male, Female or Other', () => {
    expect(validateBooking({ ...good, gender: 'x' })).toEqual({ error: 'Gender must be Male, Female or Other.', fields: ['gender'] })
  })

  it('maps the server field names onto the form', () => {
    expect(fieldOf('patient.age')).toBe('age')
    expect(fieldOf('patient.condition')).toBe('condition')
    expect(fieldOf('ambulanceId')).toBe('ambulanceId')
    expect(fieldOf('pickup')).toBe('pickup')
    expect(fieldOf('pickup.latitude')).toBe('pickup')
    expect(fieldOf('pickup.landmark')).toBe('landmark')
    expect(fieldOf('bookingType')).toBeUndefined()
    expect(fieldOf(undefined)).toBeUndefined()
  })
})

describe('Idempotency-Key per submission', () => {
  it('keeps the key while the body is the same and makes a new one when it changes', () => {
    const first = keyFor(null, '{"a":1}')
    expect(first.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(keyFor(first, '{"a":1}')).toBe(first)
    const second = keyFor(first, '{"a":2}')
    expect(second.key).not.toBe(first.key)
  })
})

describe('validatePatientDetails', () => {
  const form = (patch: Partial<PatientForm>): PatientForm => ({ ...emptyPatient, bookingType: 'EMERGENCY', ...patch })
  const whole = { name: '  Asha ', age: '0', gender: 'Other', condition: ' unconscious ' }

  it('sends all four, trimmed (PATCH /booking/{id}/patient replaces the details whole)', () => {
    expect(validatePatientDetails(form(whole))).toEqual({ value: { name: 'Asha', age: 0, gender: 'Other', condition: 'unconscious' } })
  })

  it('names every blank detail, then follows the booking rules', () => {
    expect(validatePatientDetails(form({ name: 'Asha', condition: '   ' }))).toEqual({
      error: 'Please fill in all required fields.',
      fields: ['age', 'gender', 'condition'],
    })
    expect(validatePatientDetails(form({ ...whole, age: '151' }))).toMatchObject({ fields: ['age'] })
    expect(validatePatientDetails(form({ ...whole, age: '4.5' }))).toMatchObject({ fields: ['age'] })
    expect(validatePatientDetails(form({ ...whole, gender: 'X' }))).toMatchObject({ fields: ['gender'] })
  })
})
