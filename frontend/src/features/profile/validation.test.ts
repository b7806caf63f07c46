import { describe, expect, it } from 'vitest'
import { buildProfileUpdate } from './validation'

const USER = true
const NO_LOCATION = false
const form = { email: ' me@example.com ', latitude: '30.5', longitude: '74.25', password: '', currentPassword: '' }

describe('buildProfileUpdate', () => {
  it('sends email and location for a user, and no password when none was typed', () => {
    expect(buildProfileUpdate(form, USER)).toEqual({
      body: { email: 'me@example.com', latitude: 30.5, longitude: 74.25 },
    })
  })

  it('sends no location for an admin or a crew', () => {
    expect(buildProfileUpdate({ ...form, latitude: '', longitude: '' }, NO_LOCATION)).toEqual({
      body: { email: 'me@example.com' },
    })
  })

  it('sends the new password only when one was typed, with the current one', () => {
    const change = { ...form, password: 'new-password', currentPassword: 'old-password' }
    expect(buildProfileUpdate(change, USER).body).toMatchObject({ password: 'new-password', currentPassword: 'old-password' })
    expect(buildProfileUpdate({ ...form, password: 'short' }, USER).error).toMatch(/at least 8/)
    expect(buildProfileUpdate({ ...form, currentPassword: 'typed-then-cleared' }, USER).body).not.toHaveProperty('currentPassword')
  })

  it('asks for the current password, on its field, when a new one is typed without it', () => {
    expect(buildProfileUpdate({ ...form, password: 'new-password' }, USER)).toEqual({
      error: 'Enter your current password to set a new one.',
      field: 'currentPassword',
    })
  })

  it('requires an email and numeric coordinates', () => {
    expect(buildProfileUpdate({ ...form, email: '  ' }, USER).error).toBe('Email is required.')
    expect(buildProfileUpdate({ ...form, latitude: 'north' }, USER).error).toMatch(/numbers/)
  })
})
