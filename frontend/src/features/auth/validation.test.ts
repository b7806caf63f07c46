import { describe, expect, it } from 'vitest'
import { validateRegister, type RegisterForm } from './validation'

const valid: RegisterForm = {
  username: ' asha ',
  email: 'asha@example.com',
  password: 'secret-123',
  phone: '+91 98765 43210',
  latitude: '30.67',
  longitude: '74.33',
}

describe('validateRegister', () => {
  it('accepts a complete form, trims text and converts coordinates', () => {
    expect(validateRegister(valid)).toEqual({
      input: { ...valid, username: 'asha', latitude: 30.67, longitude: 74.33 },
    })
  })

  it.each(Object.keys(valid))('says "Please fill in all fields." when %s is blank', (field) => {
    expect(validateRegister({ ...valid, [field]: '   ' }).error).toBe('Please fill in all fields.')
  })

  it('rejects coordinates that are not numbers', () => {
    expect(validateRegister({ ...valid, latitude: '30.6abc' }).error).toBe('Latitude and longitude must be numbers.')
    expect(validateRegister({ ...valid, longitude: 'east' }).error).toBe('Latitude and longitude must be numbers.')
  })

  it('rejects coordinates out of range', () => {
    expect(validateRegister({ ...valid, latitude: '91' }).error).toMatch(/Latitude/)
    expect(validateRegister({ ...valid, longitude: '-180.5' }).error).toMatch(/Longitude/)
  })

  it('keeps the password exactly as typed', () => {
    expect(validateRegister({ ...valid, password: ' spaced pass ' }).input?.password).toBe(' spaced pass ')
  })
})
