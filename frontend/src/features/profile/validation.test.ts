import { describe, expect, it } from 'vitest'
import { buildProfileUpdate } from './validation'

const form = { email: ' me@example.com ', latitude: '30.5', longitude: '74.25', password: '' }

describe('buildProfileUpdate', () => {
  it('sends email and location for a user, and no password when none was typed', () => {
    expect(buildProfileUpdate(form, false)).toEqual({
      body: { email: 'me@example.com', latitude: 30.5, longitude: 74.25 },
    })
  })

  it('sends no location for an admin', () => {
    expect(buildProfileUpdate({ ...form, latitude: '', longitude: '' }, true)).toEqual({
      body: { email: 'me@example.com' },
    })
  })

  it('sends the new password only when one was typed', () => {
    expect(buildProfileUpdate({ ...form, password: 'new-password' }, false).body?.password).toBe('new-password')
    expect(buildProfileUpdate({ ...form, password: 'short' }, false).error).toMatch(/at least 8/)
  })

  it('requires an email and numeric coordinates', () => {
    expect(buildProfileUpdate({ ...form, email: '  ' }, false).error).toBe('Email is required.')
    expect(buildProfileUpdate({ ...form, latitude: 'north' }, false).error).toMatch(/numbers/)
  })
})
