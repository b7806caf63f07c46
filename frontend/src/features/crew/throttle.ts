// When the crew's phone sends its position (docs/requirements.md, "Crew"): at most every 5 s on a
// trip and every 60 s otherwise, and not when it moved less than 20 m, except that a
// parked ambulance still reports every 100 s: a position older than 2 minutes is shown
// as stale, and a crew waiting at the pickup is not out of date. At most 720 reports an
// hour on a trip, 60 off one (36 while parked).
import { distanceMeters, type LatLng } from '@/lib/geo'
import { DEFAULT_HEARTBEAT_SECS, DEFAULT_IDLE_REPORT_SECS, reportSeconds } from './reportTimes'

export const TRIP_INTERVAL_MS = 5_000
/** 60 s; VITE_CREW_IDLE_REPORT_SECS at build time (the end-to-end build's is short). */
export const IDLE_INTERVAL_MS =
  reportSeconds('VITE_CREW_IDLE_REPORT_SECS', import.meta.env.VITE_CREW_IDLE_REPORT_SECS, DEFAULT_IDLE_REPORT_SECS) * 1000
export const MIN_MOVE_M = 20
/** Below the 2 minutes after which a position is stale, with room for a slow fix: 100 s;
 * VITE_CREW_HEARTBEAT_SECS at build time. */
export const HEARTBEAT_MS = reportSeconds('VITE_CREW_HEARTBEAT_SECS', import.meta.env.VITE_CREW_HEARTBEAT_SECS, DEFAULT_HEARTBEAT_SECS) * 1000

/** A position fix of the phone: where, how precise, and when it was taken (ms). */
export interface Fix extends LatLng {
  accuracyM?: number
  at: number
}

/** The last fix sent, and when it was sent (ms, this device's clock). */
export interface Sent extends Fix {
  sentAt: number
}

/** Whether `fix` should be sent now, given the last one sent. */
export function shouldReport(last: Sent | null, fix: Fix, now: number, onTrip: boolean): boolean {
  if (!last) return true
  // Not newer than what the server has: it would ignore it.
  if (fix.at <= last.at) return false
  const elapsed = now - last.sentAt
  if (elapsed < (onTrip ? TRIP_INTERVAL_MS : IDLE_INTERVAL_MS)) return false
  if (distanceMeters(last, fix) >= MIN_MOVE_M) return true
  return elapsed >= HEARTBEAT_MS
}
