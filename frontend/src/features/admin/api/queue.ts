import type { Alert, AlertKind, CrewPresence } from '@/lib/types'

/** Kinds whose booking the dispatcher can send another ambulance to. */
export const REASSIGNABLE: ReadonlySet<AlertKind> = new Set(['UNANSWERED', 'NO_AMBULANCE', 'CALL_STATION'])

/**
 * One row of the dispatcher's queue (docs/decisions/0024-a-console-row-acts-alone.md):
 * every open alert of one booking together, or one alert with no booking (an area's
 * NO_AMBULANCE, an ambulance NOT_RESPONDING).
 */
export interface QueueRow {
  key: string
  /** Its alerts, in the server's order (most urgent first). */
  alerts: Alert[]
  kinds: AlertKind[]
  bookingId?: number
  /** The oldest of its alerts': how long this has waited. */
  since: string
  pickup?: Alert['pickup']
  ambulanceId?: number
  ambulanceNumber?: string
  /** The crew now, else as it was when a CALL_STATION was raised. */
  presence?: CrewPresence
  requesterPhone?: string
  bookingType?: Alert['bookingType']
  destinationName?: string
  /** CALL_STATION: the ambulance's station and its phone. */
  station?: { name?: string; phone?: string }
  /** NO_AMBULANCE: the hospital nearest its latest pickup, and its phone. */
  nearest?: { name?: string; phone?: string }
  /** NO_AMBULANCE: the emergencies of its area that found nobody. */
  count?: number
  moves?: number
  canReassign: boolean
}

const first = <T>(alerts: Alert[], pick: (a: Alert) => T | undefined): T | undefined => {
  for (const a of alerts) {
    const v = pick(a)
    if (v !== undefined && v !== null) return v
  }
  return undefined
}

/**
 * The open alerts as rows: those of one job grouped, in the order of each group's
 * first (most urgent) alert, as the server sorted them. NOT_RESPONDING is about an
 * ambulance (the one that let the job go), not the job: a row of its own, naming it.
 */
export function queueRows(open: Alert[]): QueueRow[] {
  const groups = new Map<string, Alert[]>()
  for (const a of open) {
    const key = a.bookingId != null && a.kind !== 'NOT_RESPONDING' ? `b${a.bookingId}` : `a${a.id}`
    const group = groups.get(key)
    if (group) group.push(a)
    else groups.set(key, [a])
  }
  return [...groups].map(([key, alerts]) => {
    const kinds = [...new Set(alerts.map((a) => a.kind))]
    const call = alerts.find((a) => a.kind === 'CALL_STATION')
    const area = alerts.find((a) => a.kind === 'NO_AMBULANCE' && a.hospitalName)
    const bookingId = alerts[0]!.bookingId
    return {
      key,
      alerts,
      kinds,
      bookingId,
      since: alerts.map((a) => a.since).reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a)),
      pickup: first(alerts, (a) => a.pickup),
      ambulanceId: first(alerts, (a) => a.ambulanceId),
      ambulanceNumber: first(alerts, (a) => a.ambulanceNumber),
      presence: first(alerts, (a) => a.ambulancePresence) ?? first(alerts, (a) => a.crewPresence),
      requesterPhone: first(alerts, (a) => a.requesterPhone),
      bookingType: first(alerts, (a) => a.bookingType),
      destinationName: first(alerts, (a) => a.destinationName),
      station: call ? { name: call.hospitalName, phone: call.phone } : undefined,
      nearest: area ? { name: area.hospitalName, phone: area.phone } : undefined,
      count: first(alerts, (a) => a.count),
      moves: first(alerts, (a) => a.moves),
      canReassign: bookingId != null && kinds.some((k) => REASSIGNABLE.has(k)),
    }
  })
}

/** How many open alerts of each kind, in the order kinds first appear (most urgent first). */
export function kindCounts(open: Alert[]): [AlertKind, number][] {
  const counts = new Map<AlertKind, number>()
  for (const a of open) counts.set(a.kind, (counts.get(a.kind) ?? 0) + 1)
  return [...counts]
}

/** Time since an alert opened, ticking: "0:42", "12:05", "1:02:09". */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const two = (n: number) => String(n).padStart(2, '0')
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`
}
