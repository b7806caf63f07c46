import { describe, expect, it } from 'vitest'
import { isOpen, mayCancel, stageLabel, statusMoves, tripLabel } from './status'

// The moves themselves are the server's (trip::allowed); these only read them.
describe("reading the server's moves", () => {
  it('offers the admin the statuses among the moves, in their order', () => {
    expect(statusMoves(['ACTIVE', 'COMPLETED', 'CANCELLED'])).toEqual(['ACTIVE', 'COMPLETED', 'CANCELLED'])
    expect(statusMoves(['COMPLETED', 'CANCELLED'])).toEqual(['COMPLETED', 'CANCELLED'])
    expect(statusMoves(['EN_ROUTE'])).toEqual([])
    expect(statusMoves([])).toEqual([])
  })

  it('lets the caller cancel iff CANCELLED is among the moves', () => {
    expect(mayCancel({ moves: ['CANCELLED'] })).toBe(true)
    expect(mayCancel({ moves: ['ACTIVE', 'COMPLETED', 'CANCELLED'] })).toBe(true)
    expect(mayCancel({ moves: ['COMPLETED'] })).toBe(false)
    expect(mayCancel({ moves: [] })).toBe(false)
  })

  it('counts PENDING and ACTIVE as open', () => {
    expect(['PENDING', 'ACTIVE', 'COMPLETED', 'CANCELLED', 'X'].map(isOpen)).toEqual([true, true, false, false, false])
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
