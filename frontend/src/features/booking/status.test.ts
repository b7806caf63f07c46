import { describe, expect, it } from 'vitest'
import { canRequesterCancel, isOpen, nextCrewMove, nextStatuses, stageLabel, tripLabel } from './status'

describe('admin status moves (DESIGN.md 8)', () => {
  it.each([
    ['PENDING', ['ACTIVE', 'COMPLETED', 'CANCELLED']],
    ['ACTIVE', ['COMPLETED', 'CANCELLED']],
    ['COMPLETED', []],
    ['CANCELLED', []],
    ['SOMETHING_ELSE', []],
  ])('%s may move to %j', (from, to) => {
    expect(nextStatuses(from)).toEqual(to)
  })

  it('never offers staying put, going back to PENDING, or leaving a final state', () => {
    for (const from of ['PENDING', 'ACTIVE', 'COMPLETED', 'CANCELLED']) {
      expect(nextStatuses(from)).not.toContain(from)
      expect(nextStatuses(from)).not.toContain('PENDING')
    }
  })

  it('counts PENDING and ACTIVE as open', () => {
    expect(['PENDING', 'ACTIVE', 'COMPLETED', 'CANCELLED', 'X'].map(isOpen)).toEqual([true, true, false, false, false])
  })
})

describe("the crew's next move (DESIGN.md 8)", () => {
  it.each([
    ['PENDING', null, 'EN_ROUTE', 'Accept job'],
    ['ACTIVE', 'DISPATCHED', 'EN_ROUTE', 'Accept job'],
    ['ACTIVE', 'EN_ROUTE', 'AT_PICKUP', 'Arrived at pickup'],
    ['ACTIVE', 'AT_PICKUP', 'TO_HOSPITAL', 'Patient on board: go to hospital'],
    ['ACTIVE', 'TO_HOSPITAL', 'AT_HOSPITAL', 'Arrived at hospital'],
    ['ACTIVE', 'AT_HOSPITAL', 'COMPLETED', 'Complete job'],
  ] as const)('%s at %s: %s ("%s")', (bookingStatus, tripStage, stage, label) => {
    expect(nextCrewMove({ bookingStatus, tripStage })).toEqual({ stage, label })
  })

  it.each([
    ['ACTIVE', null],
    ['COMPLETED', 'AT_HOSPITAL'],
    ['CANCELLED', 'EN_ROUTE'],
    ['CANCELLED', null],
  ] as const)('none for %s at %s', (bookingStatus, tripStage) => {
    expect(nextCrewMove({ bookingStatus, tripStage })).toBeNull()
  })
})

describe('requester cancel', () => {
  it.each([
    ['PENDING', null, true],
    ['ACTIVE', 'DISPATCHED', true],
    ['ACTIVE', 'EN_ROUTE', true],
    ['ACTIVE', null, true],
    ['ACTIVE', 'AT_PICKUP', false],
    ['ACTIVE', 'TO_HOSPITAL', false],
    ['ACTIVE', 'AT_HOSPITAL', false],
    ['COMPLETED', 'AT_HOSPITAL', false],
    ['CANCELLED', null, false],
  ] as const)('%s at %s: %s', (bookingStatus, tripStage, allowed) => {
    expect(canRequesterCancel({ bookingStatus, tripStage })).toBe(allowed)
  })
})

describe('stage labels', () => {
  it('names every status and stage, and the trip by its stage while ACTIVE', () => {
    expect(stageLabel('EN_ROUTE')).toBe('On the way to the pickup')
    expect(stageLabel('PENDING')).toBe('Requested')
    expect(tripLabel({ bookingStatus: 'ACTIVE', tripStage: 'AT_PICKUP' })).toBe('At the pickup')
    expect(tripLabel({ bookingStatus: 'COMPLETED', tripStage: 'AT_HOSPITAL' })).toBe('Completed')
    expect(tripLabel({ bookingStatus: 'ACTIVE', tripStage: null })).toBe('Confirmed')
  })
})
