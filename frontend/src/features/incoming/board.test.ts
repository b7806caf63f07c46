import { describe, expect, it } from 'vitest'
import { incomingTrip } from '@/test/fixtures'
import { boardSections, etaLeft, etaText, phaseOf, since } from './board'
import { hoursFromNow, nextOccurrence } from './diversion'

const trip = incomingTrip

describe('the board’s parts', () => {
  it('at the door until handed over, on the way before it, done after', () => {
    expect(phaseOf(trip(1, { stage: 'AT_HOSPITAL', arrivedAt: '2026-03-01T10:00:00Z' }))).toBe('atDoor')
    expect(phaseOf(trip(1, { stage: 'HANDED_OVER', arrivedAt: '2026-03-01T10:00:00Z', handedOverAt: '2026-03-01T10:09:00Z' }))).toBe('done')
    for (const stage of [null, 'DISPATCHED', 'EN_ROUTE', 'AT_PICKUP', 'TO_HOSPITAL'] as const) expect(phaseOf(trip(1, { stage }))).toBe('onTheWay')
  })

  it('a trip that ended is done at whatever stage it reached: cancelled on the way, completed at the door', () => {
    expect(phaseOf(trip(1, { bookingStatus: 'CANCELLED', stage: 'EN_ROUTE' }))).toBe('done')
    expect(phaseOf(trip(1, { bookingStatus: 'COMPLETED', stage: 'AT_HOSPITAL', arrivedAt: '2026-03-01T10:00:00Z' }))).toBe('done')
    expect(phaseOf(trip(1, { bookingStatus: 'PENDING', stage: null }))).toBe('onTheWay')
  })

  it('most urgent part first whatever the answer’s order, each keeping the server’s order, empty parts left out', () => {
    const trips = [
      trip(1, { stage: 'HANDED_OVER', handedOverAt: '2026-03-01T10:09:00Z' }),
      trip(2, { bookingType: 'EMERGENCY', etaSeconds: 400 }),
      trip(3, { stage: 'AT_HOSPITAL', arrivedAt: '2026-03-01T10:00:00Z' }),
      trip(4, { etaSeconds: 60 }),
      trip(5, { stage: 'AT_HOSPITAL', arrivedAt: '2026-03-01T10:05:00Z' }),
    ]
    expect(boardSections(trips).map((s) => [s.phase, s.trips.map((t) => t.bookingId)])).toEqual([
      ['atDoor', [3, 5]],
      ['onTheWay', [2, 4]],
      ['done', [1]],
    ])
    expect(boardSections([trip(7)]).map((s) => s.phase)).toEqual(['onTheWay'])
    expect(boardSections([])).toEqual([])
  })
})

describe('the times that tick between answers', () => {
  const answeredAt = Date.parse('2026-03-01T10:00:00Z')

  it('the ETA counts down from the answer, never below zero; none stays none', () => {
    expect(etaLeft(125, answeredAt, answeredAt)).toBe(125)
    expect(etaLeft(125, answeredAt, answeredAt + 3_000)).toBe(122)
    expect(etaLeft(125, answeredAt, answeredAt + 200_000)).toBe(0)
    // A device clock behind the answer's: never counts up.
    expect(etaLeft(125, answeredAt, answeredAt - 5_000)).toBe(125)
    expect(etaLeft(null, answeredAt, answeredAt + 3_000)).toBeNull()
  })

  it('says the ETA in whole minutes, rounded up (never sooner than true)', () => {
    expect(etaText(null)).toBe('Unknown: no position yet')
    expect(etaText(0)).toBe('due now')
    expect(etaText(45)).toBe('under 1 min')
    expect(etaText(60)).toBe('1 min')
    expect(etaText(61)).toBe('2 min')
    expect(etaText(420)).toBe('7 min')
  })

  it('time since arrival, never negative, none without a time', () => {
    expect(since('2026-03-01T10:00:00Z', answeredAt + 90_000)).toBe(90_000)
    expect(since('2026-03-01T10:00:05Z', answeredAt)).toBe(0)
    expect(since(null, answeredAt)).toBeNull()
    expect(since('not a time', answeredAt)).toBeNull()
  })
})

describe('when a diversion ends', () => {
  const now = new Date(2026, 2, 1, 22, 30).getTime()

  it('the quick choices are hours from now', () => {
    expect(hoursFromNow(2, now).getTime() - now).toBe(2 * 3_600_000)
  })

  it('a clock time is its next occurrence: later today, else tomorrow, always within 24 h', () => {
    expect(nextOccurrence('23:15', now)).toEqual(new Date(2026, 2, 1, 23, 15))
    expect(nextOccurrence('06:00', now)).toEqual(new Date(2026, 2, 2, 6, 0))
    // The same minute as now is tomorrow's: the server refuses a time not in the future.
    expect(nextOccurrence('22:30', now)).toEqual(new Date(2026, 2, 2, 22, 30))
    for (const bad of ['', '7:00', '24:00', '12:60', 'noon']) expect(nextOccurrence(bad, now), bad).toBeNull()
  })
})
