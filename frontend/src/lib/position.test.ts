import { describe, expect, it } from 'vitest'
import { freshness } from './position'

const now = Date.parse('2026-03-01T10:00:00Z')
const at = (iso: string, stale = false) => ({ latitude: 30.7, longitude: 74.3, at: iso, stale, source: 'GPS' as const })

describe('freshness', () => {
  it('is live with its age while reported in the last 2 minutes', () => {
    expect(freshness(at('2026-03-01T09:59:48Z'), now)).toEqual({ kind: 'live', ageMs: 12_000, text: 'Live · updated 12 s ago' })
  })

  it('is stale, with its age, once older than 2 minutes, even if the server said fresh when it answered', () => {
    expect(freshness(at('2026-03-01T09:57:59Z'), now)).toMatchObject({ kind: 'stale', text: 'Last known position, 2 min old: the ambulance may have moved since' })
    expect(freshness(at('2026-03-01T09:59:50Z', true), now).kind).toBe('stale')
  })

  describe('with the feed that brought it', () => {
    const recent = at('2026-03-01T09:59:48Z')
    const feed = (online: boolean, fetchedSecondsAgo: number) => ({ online, pollMs: 5000, updatedAt: now - fetchedSecondsAgo * 1000 })

    it('is live while online and polled on time (one slow answer allowed)', () => {
      expect(freshness(recent, now, feed(true, 3))).toEqual({ kind: 'live', ageMs: 12_000, text: 'Live · updated 12 s ago' })
      expect(freshness(recent, now, feed(true, 15))).toMatchObject({ kind: 'live' })
    })

    it('is the last known position, never live, while offline', () => {
      const offline = freshness(recent, now, feed(false, 3))
      expect(offline).toEqual({ kind: 'lastKnown', ageMs: 12_000, text: 'Last known · updated 12 s ago' })
      expect(offline.text).not.toMatch(/live/i)
    })

    it('is the last known position once the polling has missed more than 3 polls (stale data)', () => {
      expect(freshness(recent, now, feed(true, 16))).toEqual({ kind: 'lastKnown', ageMs: 12_000, text: 'Last known · updated 12 s ago' })
    })

    it('is stale, with its age, when the position itself is old, online or not', () => {
      const old = at('2026-03-01T09:57:00Z')
      expect(freshness(old, now, feed(false, 3))).toMatchObject({ kind: 'stale', text: 'Last known position, 3 min old: the ambulance may have moved since' })
      expect(freshness(old, now, feed(true, 3)).kind).toBe('stale')
    })
  })

  it('says the hospital stands in for a position never reported', () => {
    const text = "No position reported yet: the hospital's location is shown instead"
    expect(freshness(null, now)).toEqual({ kind: 'standIn', text })
    expect(freshness({ latitude: 30.6, longitude: 74.3, at: null, stale: true, source: 'HOSPITAL' }, now)).toEqual({ kind: 'standIn', text })
  })
})
