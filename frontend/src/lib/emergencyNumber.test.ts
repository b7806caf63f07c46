import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_EMERGENCY_NUMBER, emergencyNumberOf } from './emergencyNumber'

afterEach(() => {
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
  vi.resetModules()
  localStorage.clear()
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
    // Every language's catalogue reads the one setting.
    const [{ en: S }, { hi }, { pa }] = await Promise.all([import('@/i18n/en'), import('@/i18n/hi'), import('@/i18n/pa')])
    expect([hi.emergencyTel, pa.emergencyTel, hi.callNow, pa.callNow]).toEqual(['tel:112', 'tel:112', '112 पर कॉल करें', '112 ’ਤੇ ਕਾਲ ਕਰੋ'])
    expect(S.emergencyNumber).toBe('112')
    expect(S.callEmergency).toBe('Call Emergency (112)')
    expect(S.emergencyCall).toBe('Emergency 112')
  })
})

describe('the number in force', () => {
  it('is the server’s once it reached this device: every text and call link at once, kept for the next start', async () => {
    vi.resetModules()
    const live = await import('./liveEmergencyNumber')
    const { en: S } = await import('@/i18n/en')
    expect(S.callNow).toBe('Call 911')
    live.setEmergencyNumber('108')
    expect([S.emergencyTel, S.callNow, S.answer.stillLooking]).toEqual(['tel:108', 'Call 108', 'Still looking for an ambulance: call 108'])
    expect(S.otherRegions).toBe('')
    live.setEmergencyNumber('+108')
    expect(live.emergencyNumber()).toBe('108')
    // The next start (a fresh module) dials what this device was told, before any request.
    vi.resetModules()
    const next = await import('./liveEmergencyNumber')
    expect(next.emergencyNumber()).toBe('108')
  })

  it('is asked of the server once the app is up; offline, the kept one stays', async () => {
    vi.resetModules()
    const { routeFetch, json } = await import('@/test/render')
    const { calls } = routeFetch({ 'GET /hospitals/emergency-number': () => json(200, { emergencyNumber: '112' }) })
    const { askEmergencyNumber } = await import('@/app/emergencyNumber')
    const live = await import('./liveEmergencyNumber')
    await askEmergencyNumber()
    expect(live.emergencyNumber()).toBe('112')
    expect(calls[0]!.headers).not.toHaveProperty('Authorization')
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('offline'))))
    await askEmergencyNumber()
    expect(live.emergencyNumber()).toBe('112')
  })
})
