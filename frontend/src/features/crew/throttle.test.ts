import { describe, expect, it } from 'vitest'
import { HEARTBEAT_MS, shouldReport, type Fix, type Sent } from './throttle'

const T0 = 1_750_000_000_000
// 0.0001 degree of latitude is about 11 m; 0.0002 about 22 m.
const at = (dLat: number, ms: number): Fix => ({ latitude: 30.67 + dLat, longitude: 74.33, at: T0 + ms })
const sent = (fix: Fix, sentAt = fix.at): Sent => ({ ...fix, sentAt })

describe('shouldReport', () => {
  const last = sent(at(0, 0))

  it('sends the first fix at once', () => {
    expect(shouldReport(null, at(0, 0), T0, false)).toBe(true)
    expect(shouldReport(null, at(0, 0), T0, true)).toBe(true)
  })

  it('on a trip: at most every 5 s, once it moved 20 m', () => {
    expect(shouldReport(last, at(0.001, 4_999), T0 + 4_999, true)).toBe(false)
    expect(shouldReport(last, at(0.001, 5_000), T0 + 5_000, true)).toBe(true)
    expect(shouldReport(last, at(0.0002, 5_000), T0 + 5_000, true)).toBe(true) // ~22 m
    expect(shouldReport(last, at(0.0001, 30_000), T0 + 30_000, true)).toBe(false) // ~11 m
  })

  it('off a trip: at most every 60 s', () => {
    expect(shouldReport(last, at(0.01, 59_999), T0 + 59_999, false)).toBe(false)
    expect(shouldReport(last, at(0.01, 60_000), T0 + 60_000, false)).toBe(true)
  })

  it('counts time from when the last one was sent, so a fix held back goes out later', () => {
    // Moved 110 m 3 s after the last report (held back), then no new fix: at 5 s it goes.
    const held = at(0.001, 3_000)
    expect(shouldReport(last, held, T0 + 3_000, true)).toBe(false)
    expect(shouldReport(last, held, T0 + 5_000, true)).toBe(true)
  })

  it('never sends a fix that is not newer than the last one sent', () => {
    expect(shouldReport(last, at(0.01, 0), T0 + 120_000, true)).toBe(false)
    expect(shouldReport(last, at(0.01, -1_000), T0 + 120_000, true)).toBe(false)
  })

  it('a parked ambulance still reports every 100 s, so it does not turn stale', () => {
    expect(shouldReport(last, at(0, HEARTBEAT_MS - 1), T0 + HEARTBEAT_MS - 1, true)).toBe(false)
    expect(shouldReport(last, at(0, HEARTBEAT_MS), T0 + HEARTBEAT_MS, true)).toBe(true)
    expect(shouldReport(last, at(0.00005, HEARTBEAT_MS), T0 + HEARTBEAT_MS, false)).toBe(true)
  })

  it('a steady drive sends once per 5 s on a trip (720 an hour at most)', () => {
    let previous: Sent | null = null
    let count = 0
    // A fix every second for an hour, moving 15 m a second (54 km/h).
    for (let s = 0; s < 3600; s++) {
      const fix = at(s * 0.000135, s * 1000)
      if (shouldReport(previous, fix, fix.at, true)) {
        previous = sent(fix)
        count++
      }
    }
    expect(count).toBe(720)
  })
})
