import { afterEach, describe, expect, it } from 'vitest'
import { forgetPendingEmergency, pendingEmergency, pendingOr } from './pending'

afterEach(() => sessionStorage.clear())

const here = { pickup: { latitude: 30.7, longitude: 74.3 } }
const there = { pickup: { latitude: 31, longitude: 75 } }

describe('the pending emergency request', () => {
  it('is stored with a new key, and the same one (with its body) comes back until answered', () => {
    const first = pendingOr(here, 1000)
    expect(first.key).toMatch(/^[0-9a-f-]{36}$/)
    expect(pendingEmergency(2000)).toEqual(first)
    // A second hold, even with another pickup, re-sends the unanswered one.
    expect(pendingOr(there, 3000)).toEqual(first)
    forgetPendingEmergency()
    expect(pendingEmergency()).toBeNull()
    const next = pendingOr(there, 4000)
    expect(next.key).not.toBe(first.key)
    expect(next.body).toEqual(there)
  })

  it('is dropped after an hour, or when what is stored is not one', () => {
    pendingOr(here, 0)
    expect(pendingEmergency(60 * 60 * 1000 - 1)).not.toBeNull()
    expect(pendingEmergency(60 * 60 * 1000)).toBeNull()
    expect(sessionStorage.getItem('emergency.pending')).toBeNull()
    sessionStorage.setItem('emergency.pending', '{"key":1}')
    expect(pendingEmergency()).toBeNull()
    sessionStorage.setItem('emergency.pending', 'not json')
    expect(pendingEmergency()).toBeNull()
  })
})
