// The admin screens' own texts: every language has every key of English, none empty,
// every placeholder kept (the check of src/i18n's catalogues).
import { describe, expect, it } from 'vitest'
import { catalogueProblems } from '@/test/catalogues'
import { adminEn } from './en'
import { adminHi } from './hi'
import { adminPa } from './pa'

describe("the admin screens' texts", () => {
  it.each([
    ['hi', adminHi],
    ['pa', adminPa],
  ])('%s has every key of English, none empty, every placeholder kept', (_name, catalogue) => {
    expect(catalogueProblems(adminEn, catalogue)).toEqual([])
  })

  it('name every action of the contract', () => {
    const actions: Record<import('@/lib/types').AuditAction, true> = {
      BOOKING_REASSIGNED: true, BOOKING_STATUS_CHANGED: true, AMBULANCE_STATUS_CHANGED: true, ALERT_ACKNOWLEDGED: true,
      SETTINGS_CHANGED: true, CREW_CREATED: true, CREW_MOVED: true, CREW_REMOVED: true, HOSPITAL_STAFF_CREATED: true, HOSPITAL_ADDED: true,
      HOSPITAL_REMOVED: true, HOSPITAL_AMBULANCES_REMOVED: true, AMBULANCE_ADDED: true, AMBULANCE_REMOVED: true,
      PATIENT_DETAILS_READ: true,
    }
    for (const catalogue of [adminEn, adminHi, adminPa]) expect(Object.keys(catalogue.audit.actions).sort()).toEqual(Object.keys(actions).sort())
  })
})
