import { describe, expect, it } from 'vitest'
import { JOB_VIBRATION, notificationFor, parsePayload, pickWindow, type PushPayload } from './notification'

const shown = (p: PushPayload) => {
  const n = notificationFor(p)
  if (!n.show) throw new Error('expected a notification to show')
  return n
}

describe('parsePayload', () => {
  it('takes the four kinds of the contract, and nothing else', () => {
    expect(parsePayload({ kind: 'JOB', bookingId: 7, bookingType: 'EMERGENCY', answerBy: '2026-11-27T08:31:00Z', distanceKm: 1.24 })).toEqual({
      kind: 'JOB', bookingId: 7, bookingType: 'EMERGENCY', answerBy: '2026-11-27T08:31:00Z', distanceKm: 1.24,
    })
    expect(parsePayload({ kind: 'JOB_GONE', bookingId: 7 })).toEqual({ kind: 'JOB_GONE', bookingId: 7 })
    expect(parsePayload({ kind: 'TRIP', bookingId: 7, tripStage: 'AT_PICKUP' })).toEqual({ kind: 'TRIP', bookingId: 7, tripStage: 'AT_PICKUP', ambulanceNumber: null, answerBy: null })
    expect(parsePayload({ kind: 'TRIP', bookingId: 7, tripStage: 'DISPATCHED', answerBy: '2026-11-27T08:31:00Z' })).toMatchObject({ answerBy: '2026-11-27T08:31:00Z' })
    expect(parsePayload({ kind: 'ALERT', alertId: 'a1', alertKind: 'UNANSWERED', bookingId: 7 })).toMatchObject({ alertId: 'a1', bookingId: 7 })
    for (const bad of [null, 'JOB', {}, { kind: 'JOB', bookingId: '7', bookingType: 'NORMAL' }, { kind: 'JOB_GONE' }, { kind: 'TRIP', bookingId: 7 }, { kind: 'ALERT', alertId: 3 }, { kind: 'SPAM', bookingId: 7 }]) {
      expect(parsePayload(bad), JSON.stringify(bad)).toBeNull()
    }
  })

  it('keeps a job whose distance or deadline is missing, without them', () => {
    expect(parsePayload({ kind: 'JOB', bookingId: 7, bookingType: 'NORMAL', answerBy: null, distanceKm: 'far' })).toMatchObject({ answerBy: null, distanceKm: null })
  })
})

describe('the receiving hospital', () => {
  it('takes an INCOMING push, its ETA whole minutes or none', () => {
    expect(parsePayload({ kind: 'INCOMING', bookingId: 7, bookingType: 'EMERGENCY', tripStage: 'TO_HOSPITAL', ambulanceNumber: 'PB-31', etaMinutes: 6.6 })).toEqual({
      kind: 'INCOMING', bookingId: 7, bookingType: 'EMERGENCY', tripStage: 'TO_HOSPITAL', ambulanceNumber: 'PB-31', etaMinutes: 7,
    })
    expect(parsePayload({ kind: 'INCOMING', bookingId: 7, bookingType: 'NORMAL', tripStage: 'AT_HOSPITAL', ambulanceNumber: 'PB-31', etaMinutes: null })).toMatchObject({ etaMinutes: null })
    for (const bad of [{ kind: 'INCOMING', bookingId: 7, bookingType: 'NORMAL', tripStage: 'TO_HOSPITAL' }, { kind: 'INCOMING', bookingId: 0, bookingType: 'NORMAL', tripStage: 'TO_HOSPITAL', ambulanceNumber: 'A' }]) {
      expect(parsePayload(bad), JSON.stringify(bad)).toBeNull()
    }
  })

  it('an emergency coming rings until seen, with its ETA, and opens the board', () => {
    const n = shown({ kind: 'INCOMING', bookingId: 7, bookingType: 'EMERGENCY', tripStage: 'TO_HOSPITAL', ambulanceNumber: 'PB-31', etaMinutes: 6 })
    expect(n.title).toBe('Ambulance PB-31 coming: Emergency')
    expect(n.options.body).toBe('Booking #7 · ETA 6 min')
    expect(n.options).toMatchObject({ tag: 'incoming-7', requireInteraction: true, renotify: true, data: { url: '/hospital' } })
  })

  it('a normal trip coming without a position says the ETA is not known; its arrival replaces it and stays', () => {
    const coming = shown({ kind: 'INCOMING', bookingId: 8, bookingType: 'NORMAL', tripStage: 'TO_HOSPITAL', ambulanceNumber: 'PB-32', etaMinutes: null })
    expect(coming.title).toBe('Ambulance PB-32 coming: Normal')
    expect(coming.options.body).toBe('Booking #8 · ETA not known yet')
    expect(coming.options.requireInteraction).toBe(false)
    const arrived = shown({ kind: 'INCOMING', bookingId: 8, bookingType: 'NORMAL', tripStage: 'AT_HOSPITAL', ambulanceNumber: 'PB-32', etaMinutes: null })
    expect(arrived.title).toBe('Ambulance PB-32 has arrived')
    expect(arrived.options).toMatchObject({ tag: coming.options.tag, requireInteraction: true, data: { url: '/hospital' } })
  })
})

describe('notificationFor', () => {
  it('a job rings: its distance, vibration, stays until tapped, one per booking, opens /crew', () => {
    const n = shown({ kind: 'JOB', bookingId: 42, bookingType: 'EMERGENCY', answerBy: null, distanceKm: 2.345 })
    expect(n.title).toBe('New emergency job #42')
    expect(n.options.body).toBe('2.3 km away')
    expect(n.options).toMatchObject({ tag: 'job-42', requireInteraction: true, vibrate: JOB_VIBRATION, renotify: true, data: { url: '/crew' } })
  })

  it('a normal job says so, and when to answer by', () => {
    const n = shown({ kind: 'JOB', bookingId: 3, bookingType: 'NORMAL', answerBy: '2026-11-27T08:31:00Z', distanceKm: 0.5 })
    expect(n.title).toBe('New job #3')
    expect(n.options.body).toMatch(/^0\.5 km away · answer by \S+/)
  })

  it('a job taken away closes that booking’s notification and shows none', () => {
    expect(notificationFor({ kind: 'JOB_GONE', bookingId: 42 })).toEqual({ show: false, close: 'job-42' })
  })

  it('the requester hears the ambulance arrive, and it opens the trip', () => {
    const n = shown({ kind: 'TRIP', bookingId: 9, tripStage: 'AT_PICKUP', ambulanceNumber: 'AMB-07' })
    expect(n.title).toBe('The ambulance has arrived')
    expect(n.options.body).toBe('Booking #9 · Ambulance AMB-07 is at the pickup.')
    expect(n.options).toMatchObject({ tag: 'trip-9', requireInteraction: true, data: { url: '/bookings/9' } })
  })

  it('a move says the words of the trip page; an unknown stage still says something', () => {
    expect(shown({ kind: 'TRIP', bookingId: 9, tripStage: 'REASSIGNED', ambulanceNumber: 'AMB-08' }).options.body).toBe(
      'Booking #9 · No answer from the first ambulance: sent to AMB-08',
    )
    expect(shown({ kind: 'TRIP', bookingId: 9, tripStage: 'DISPATCHED', ambulanceNumber: null }).options).toMatchObject({
      body: 'Booking #9 · An ambulance is assigned: waiting for its crew to accept.',
      requireInteraction: false,
    })
    expect(shown({ kind: 'TRIP', bookingId: 9, tripStage: 'NO_AMBULANCE' }).title).toMatch(/^Still looking for an ambulance: call \d+$/)
    expect(shown({ kind: 'TRIP', bookingId: 9, tripStage: 'TO_HOSPITAL' }).options.body).toBe('Booking #9 · On the way to the hospital')
  })

  it('until the crew accepts it says so, with the seconds left; "on its way" only after the accept', () => {
    const now = Date.parse('2026-11-27T08:30:18Z')
    const waiting = notificationFor({ kind: 'TRIP', bookingId: 9, tripStage: 'DISPATCHED', ambulanceNumber: 'AMB-07', answerBy: '2026-11-27T08:31:00Z' }, now)
    if (!waiting.show) throw new Error('expected a notification')
    expect(waiting.title).toBe('Ambulance assigned')
    expect(waiting.options.body).toBe('Booking #9 · Ambulance AMB-07: waiting for its crew to accept (42 s left)')
    expect(waiting.options.body).not.toMatch(/on its way/)
    const accepted = shown({ kind: 'TRIP', bookingId: 9, tripStage: 'ACCEPTED', ambulanceNumber: 'AMB-07' })
    expect(accepted.title).toBe('The crew accepted')
    expect(accepted.options.body).toBe('Booking #9 · Ambulance AMB-07 is on its way.')
  })

  it('a dispatcher’s alert names its kind and opens the live map, one per alert', () => {
    const n = shown({ kind: 'ALERT', alertId: 5, alertKind: 'NO_AMBULANCE', bookingId: 12 })
    expect(n.title).toBe('New alert: No free ambulance for an emergency')
    expect(n.options).toMatchObject({ tag: 'alert-5', requireInteraction: true, body: 'Booking #12 · Open the live map to act on it.', data: { url: '/admin/live' } })
  })
})

describe('pickWindow', () => {
  const origin = 'https://app.example'
  it('focuses the window already on the page, else sends one of ours there, else opens one', () => {
    const crew = { url: `${origin}/crew`, focused: false }
    const profile = { url: `${origin}/profile`, focused: true }
    const other = { url: 'https://else.example/crew', focused: false }
    expect(pickWindow([profile, crew], '/crew', origin)).toEqual({ client: crew, navigate: false })
    expect(pickWindow([other, profile], '/crew', origin)).toEqual({ client: profile, navigate: true })
    expect(pickWindow([other], '/crew', origin)).toBeNull()
  })
})
