// Every language has every key of English, none empty, and keeps every placeholder
// (a number, a name, a distance) that the English text shows.
import { describe, expect, it } from 'vitest'
import { en } from './en'
import { hi } from './hi'
import { pa } from './pa'
import type { components } from '@/lib/api-schema'
import { catalogueProblems } from '@/test/catalogues'

// Every error code of the contract (tsc fails here when docs/openapi.yaml adds one).
const ERROR_CODES: Record<components['schemas']['ErrorCode'], true> = {
  invalid: true, unauthorized: true, badCredentials: true, forbidden: true, notFound: true, conflict: true,
  usernameTaken: true, emailTaken: true, ambulanceTaken: true, noAmbulanceNear: true, openEmergency: true,
  openBookings: true,
  methodNotAllowed: true, tooLarge: true, unsupportedMediaType: true, unprocessable: true, rateLimited: true,
  unavailable: true, internal: true,
}

describe('the catalogues', () => {
  it.each([
    ['hi', hi],
    ['pa', pa],
  ])('%s has every key of English, none empty, every placeholder kept', (_name, catalogue) => {
    expect(catalogueProblems(en, catalogue)).toEqual([])
  })

  it.each([
    ['en', en],
    ['hi', hi],
    ['pa', pa],
  ])('%s words every error code of the contract', (_name, catalogue) => {
    const errors = catalogue.errors as unknown as Record<string, unknown>
    const missing = Object.keys(ERROR_CODES).filter((code) => !['string', 'function'].includes(typeof errors[code]))
    expect(missing).toEqual([])
  })

  it('are written in their own script where it matters most', () => {
    expect(hi.emergency.send).toMatch(/[\u0900-\u097F]/)
    expect(pa.emergency.send).toMatch(/[\u0A00-\u0A7F]/)
    expect([hi.locale, pa.locale]).toEqual(['hi', 'pa'])
  })

  it('the check itself finds a missing key, an empty text and a dropped placeholder', () => {
    const broken = {
      ...hi,
      loginFailed: ' ',
      tracking: { ...hi.tracking, title: () => 'बुकिंग' },
      crew: (({ loading: _dropped, ...rest }) => rest)(hi.crew),
    }
    expect(catalogueProblems(en, broken)).toEqual([
      'loginFailed: empty',
      'tracking.title: drops the placeholder shown as 37',
      'crew.loading: missing',
    ])
  })
})
