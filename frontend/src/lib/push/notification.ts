// What a push says, composed on the device (docs/decisions/0015-push-in-the-web-app.md):
// the server sends only the contract's fields (docs/openapi.yaml, decision 0014), never a text, so no
// name or address crosses the push service, and the words live here beside the others.
// Pure: the service worker (src/sw.ts) and the tests call it alike.
import { formatDistance, formatTime } from '@/lib/format'
import { H } from '@/i18n/hospital'
import { S } from '@/strings'

export type PushPayload =
  | { kind: 'JOB'; bookingId: number; bookingType: string; answerBy: string | null; distanceKm: number | null }
  | { kind: 'JOB_GONE'; bookingId: number }
  | { kind: 'TRIP'; bookingId: number; tripStage: string; ambulanceNumber?: string | null; answerBy?: string | null }
  | { kind: 'ALERT'; alertId: number | string; alertKind: string; bookingId: number | null }
  | { kind: 'INCOMING'; bookingId: number; bookingType: string; tripStage: string; ambulanceNumber: string; etaMinutes: number | null }

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0
const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0

/** The payload if it is one of the contract's five, else null (a malformed push shows nothing of it). */
export function parsePayload(data: unknown): PushPayload | null {
  if (typeof data !== 'object' || data === null) return null
  const d = data as Record<string, unknown>
  switch (d.kind) {
    case 'JOB':
      if (!isId(d.bookingId) || !str(d.bookingType)) return null
      return {
        kind: 'JOB',
        bookingId: d.bookingId,
        bookingType: d.bookingType,
        answerBy: str(d.answerBy) ? d.answerBy : null,
        distanceKm: typeof d.distanceKm === 'number' && Number.isFinite(d.distanceKm) ? d.distanceKm : null,
      }
    case 'JOB_GONE':
      return isId(d.bookingId) ? { kind: 'JOB_GONE', bookingId: d.bookingId } : null
    case 'TRIP':
      if (!isId(d.bookingId) || !str(d.tripStage)) return null
      return {
        kind: 'TRIP',
        bookingId: d.bookingId,
        tripStage: d.tripStage,
        ambulanceNumber: str(d.ambulanceNumber) ? d.ambulanceNumber : null,
        answerBy: str(d.answerBy) && Number.isFinite(Date.parse(d.answerBy)) ? d.answerBy : null,
      }
    case 'INCOMING':
      if (!isId(d.bookingId) || !str(d.bookingType) || !str(d.tripStage) || !str(d.ambulanceNumber)) return null
      return {
        kind: 'INCOMING',
        bookingId: d.bookingId,
        bookingType: d.bookingType,
        tripStage: d.tripStage,
        ambulanceNumber: d.ambulanceNumber,
        etaMinutes: typeof d.etaMinutes === 'number' && Number.isFinite(d.etaMinutes) && d.etaMinutes >= 0 ? Math.round(d.etaMinutes) : null,
      }
    case 'ALERT':
      if (!(isId(d.alertId) || str(d.alertId)) || !str(d.alertKind)) return null
      return { kind: 'ALERT', alertId: d.alertId, alertKind: d.alertKind, bookingId: isId(d.bookingId) ? d.bookingId : null }
    default:
      return null
  }
}

/** One notification per booking (or alert): a newer one about it replaces the older. */
export const jobTag = (bookingId: number) => `job-${bookingId}`
export const tripTag = (bookingId: number) => `trip-${bookingId}`
export const alertTag = (alertId: number | string) => `alert-${alertId}`
export const incomingTag = (bookingId: number) => `incoming-${bookingId}`

/** A ringing pattern a pocket feels: three long buzzes. */
export const JOB_VIBRATION = [500, 200, 500, 200, 500]

export interface Shown {
  show: true
  title: string
  /** What the service worker passes to showNotification (`data.url`: where a tap goes). */
  options: NotificationOptions & { vibrate?: number[]; renotify?: boolean; data: { url: string } }
}
export interface Closed {
  show: false
  /** The tag of the notification this push takes back. */
  close: string
}


/** The notification for `payload`, or which one to close (JOB_GONE); `now` (ms) counts down a TRIP's `answerBy`. */
export function notificationFor(payload: PushPayload, now: number = Date.now()): Shown | Closed {
  const P = S.push.notify
  const base = { icon: '/icon-192.png', badge: '/favicon-32.png', lang: S.locale }
  switch (payload.kind) {
    case 'JOB': {
      const emergency = payload.bookingType === 'EMERGENCY'
      const parts = [payload.distanceKm === null ? null : P.jobDistance(formatDistance(payload.distanceKm))]
      if (payload.answerBy) parts.push(P.answerBy(formatTime(payload.answerBy)))
      return {
        show: true,
        title: emergency ? P.jobEmergency(payload.bookingId) : P.job(payload.bookingId),
        options: {
          ...base,
          body: parts.filter(Boolean).join(' · '),
          tag: jobTag(payload.bookingId),
          // Rings again even when it replaces a notification about the same booking (a job back after a move).
          renotify: true,
          // Stays until the crew does something: a job is worthless if it fades unseen.
          requireInteraction: true,
          vibrate: JOB_VIBRATION,
          data: { url: '/crew' },
        },
      }
    }
    case 'JOB_GONE':
      return { show: false, close: jobTag(payload.bookingId) }
    case 'TRIP': {
      const n = payload.ambulanceNumber ?? null
      const [title, said] = tripText(payload.tripStage, n)
      // Waiting for the crew to accept (decision 0020): how long they have, as the page counts it.
      const left = payload.answerBy ? Math.ceil((Date.parse(payload.answerBy) - now) / 1000) : 0
      const body = left > 0 ? `${said.replace(/[.।]\s*$/, '')} (${P.secondsLeft(left)})` : said
      return {
        show: true,
        title,
        options: {
          ...base,
          body: `${S.alerts.booking(payload.bookingId)} · ${body}`,
          tag: tripTag(payload.bookingId),
          renotify: true,
          // The ambulance at the door, or nobody coming: that must not fade by itself.
          requireInteraction: payload.tripStage === 'AT_PICKUP' || payload.tripStage === 'NO_AMBULANCE',
          vibrate: [300, 150, 300],
          data: { url: `/bookings/${payload.bookingId}` },
        },
      }
    }
    case 'INCOMING': {
      // To the receiving hospital's staff (their words: i18n/hospital): coming, then at the door.
      const N = H().notify
      const arrived = payload.tripStage === 'AT_HOSPITAL'
      const type = (S.bookingType as Record<string, string>)[payload.bookingType] ?? payload.bookingType
      const when = payload.etaMinutes === null ? N.etaUnknown : N.eta(payload.etaMinutes)
      return {
        show: true,
        title: arrived ? N.arrived(payload.ambulanceNumber) : N.coming(payload.ambulanceNumber, type),
        options: {
          ...base,
          body: `${S.alerts.booking(payload.bookingId)} · ${arrived ? N.arrivedBody : when}`,
          tag: incomingTag(payload.bookingId),
          renotify: true,
          // An emergency coming, or any ambulance at the door: that must not fade unseen.
          requireInteraction: arrived || payload.bookingType === 'EMERGENCY',
          vibrate: arrived || payload.bookingType === 'EMERGENCY' ? JOB_VIBRATION : [300, 150, 300],
          data: { url: '/hospital' },
        },
      }
    }
    case 'ALERT': {
      const kinds = S.alerts.kind as Record<string, string>
      return {
        show: true,
        title: P.alert(kinds[payload.alertKind] ?? payload.alertKind),
        options: {
          ...base,
          body: payload.bookingId === null ? P.alertBody : `${S.alerts.booking(payload.bookingId)} · ${P.alertBody}`,
          tag: alertTag(payload.alertId),
          requireInteraction: true,
          vibrate: [300, 150, 300],
          data: { url: '/admin/live' },
        },
      }
    }
  }
}

function tripText(stage: string, number: string | null): [string, string] {
  const P = S.push.notify
  switch (stage) {
    case 'DISPATCHED':
      return [P.dispatched, number ? P.dispatchedBody(number) : P.dispatchedNoNumber]
    case 'REASSIGNED':
      return [P.reassigned, number ? S.answer.movedFirst(number) : P.reassignedNoNumber]
    // Only now "on its way" (decision 0020).
    case 'ACCEPTED':
      return [P.accepted, number ? P.acceptedBody(number) : P.acceptedNoNumber]
    case 'AT_PICKUP':
      return [P.arrived, number ? P.arrivedBody(number) : P.arrivedNoNumber]
    case 'NO_AMBULANCE':
      return [S.answer.stillLooking, P.noAmbulanceBody]
    default: {
      // A stage the contract may add later still says something true.
      const stages = S.stages as Record<string, string>
      return [P.tripUpdate, stages[stage] ?? stage]
    }
  }
}

/**
 * Which open window a tap on a notification for `url` should use: one already there
 * (focused), else any window of the app (sent there), else none (a new one is opened).
 */
export function pickWindow<C extends { url: string; focused?: boolean }>(clients: readonly C[], url: string, origin: string): { client: C; navigate: boolean } | null {
  const path = (u: string) => {
    const parsed = new URL(u, origin)
    return parsed.origin === origin ? parsed.pathname : null
  }
  const ours = clients.filter((c) => path(c.url) !== null)
  const same = ours.find((c) => path(c.url) === url)
  if (same) return { client: same, navigate: false }
  const any = ours.find((c) => c.focused) ?? ours[0]
  return any ? { client: any, navigate: true } : null
}
