import { describe, expect, it } from 'vitest'
import { isOpen, nextStatuses } from './status'

describe('booking status moves (DESIGN.md 4)', () => {
  it.each([
    ['PENDING', ['ACTIVE', 'CANCELLED']],
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
