import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_EMERGENCY_NUMBER, emergencyNumberOf } from './emergencyNumber'

afterEach(() => {
  vi.unstubAllEnvs()
  vi.resetModules()
})

describe('emergencyNumberOf', () => {
  it('is the spec’s 911 when nothing is set', () => {
    expect(DEFAULT_EMERGENCY_NUMBER).toBe('911')
    expect(emergencyNumberOf(undefined)).toBe('911')
    expect(emergencyNumberOf('  ')).toBe('911')
  })

  it('takes another country’s number', () => {
    expect(emergencyNumberOf('112')).toBe('112')
    expect(emergencyNumberOf(' 108 ')).toBe('108')
    expect(emergencyNumberOf('000')).toBe('000')
  })

  it('refuses anything that is not 2 to 6 digits, naming the setting', () => {
    for (const bad of ['9', '91-1', '+112', 'abc', '1234567', 'tel:911']) {
      expect(() => emergencyNumberOf(bad)).toThrow(/VITE_EMERGENCY_NUMBER/)
    }
  })

  it('is what every message and call button of the app says', async () => {
    vi.stubEnv('VITE_EMERGENCY_NUMBER', '112')
    vi.resetModules()
    const { S } = await import('@/strings')
    expect(S.emergencyNumber).toBe('112')
    expect(S.callEmergency).toBe('Call Emergency (112)')
    expect(S.emergencyCall).toBe('Emergency 112')
  })
})
