// The incoming board's logic, pure (the screen and its tests call it alike): which part
// of the board a trip belongs to, and the times that tick between two answers.
import { H } from '@/i18n/hospital'
import { type Leg, legOf } from '@/lib/trip/stages'
import type { IncomingTrip } from '@/lib/types'

/** At the door (arrived, not handed over), on the way, or handed over / ended. */
export type Phase = 'atDoor' | 'onTheWay' | 'done'

/** The part of the board an open trip belongs to at each leg. */
const legPhase: Readonly<Record<Leg, (trip: IncomingTrip) => Phase>> = {
  toPickup: () => 'onTheWay',
  atPickup: () => 'onTheWay',
  toHospital: () => 'onTheWay',
  atHospital: (trip) => (trip.handedOverAt === null ? 'atDoor' : 'done'),
  handedOver: () => 'done',
}

export function phaseOf(trip: IncomingTrip): Phase {
  // Ended at any stage (cancelled on the way, completed at the door): no longer coming.
  if (trip.bookingStatus === 'COMPLETED' || trip.bookingStatus === 'CANCELLED') return 'done'
  return trip.stage === null ? 'onTheWay' : legPhase[legOf(trip.stage)](trip)
}

export const phases: readonly Phase[] = ['atDoor', 'onTheWay', 'done']

/**
 * The board's parts, most urgent first, each keeping the server's order (it sorts by
 * urgency: the longest waiting at the door, then emergencies and the nearest, then the
 * newest ended). A part without trips is left out.
 */
export function boardSections(trips: readonly IncomingTrip[]): { phase: Phase; trips: IncomingTrip[] }[] {
  return phases
    .map((phase) => ({ phase, trips: trips.filter((t) => phaseOf(t) === phase) }))
    .filter((s) => s.trips.length > 0)
}

/**
 * The ETA now, in whole seconds: the server's `etaSeconds`, as of the answer's time
 * (`answeredAt`, ms), counted down on this device until the next answer, never below 0.
 * Null when the server knows none.
 */
export function etaLeft(etaSeconds: number | null, answeredAt: number, now: number): number | null {
  if (etaSeconds === null) return null
  return Math.max(0, Math.round(etaSeconds - Math.max(0, now - answeredAt) / 1000))
}

/** An ETA as the board shows it: "7 min" (rounded up: never sooner than true), "under 1 min", "due now". */
export function etaText(seconds: number | null): string {
  const t = H().board
  if (seconds === null) return t.etaUnknown
  if (seconds <= 0) return t.etaDue
  if (seconds < 60) return t.etaUnderMinute
  return t.etaMinutes(Math.ceil(seconds / 60))
}

/** How long since `at` (ms), never negative (a phone's clock a little behind the server's). */
export const since = (at: string | null, now: number): number | null => {
  if (!at) return null
  const t = Date.parse(at)
  return Number.isNaN(t) ? null : Math.max(0, now - t)
}

/** At the door past this long: the NHS's target for a handover, so the card turns red. */
export const HANDOVER_TARGET_MS = 15 * 60_000
