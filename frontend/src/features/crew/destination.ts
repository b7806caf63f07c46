// The crew's destination rules, pure: until when it may change, and what a hospital's
// diversion says (`onDiversionUntil` is null once past, but a screen kept open goes on
// ticking, so the time is checked here too).
import { arrived } from '@/lib/trip/stages'
import type { Booking } from '@/lib/types'

/** The destination may change until the ambulance is at the hospital (the server answers 409 after). */
export function mayChangeDestination(job: Pick<Booking, 'bookingStatus' | 'tripStage'>): boolean {
  if (job.bookingStatus !== 'PENDING' && job.bookingStatus !== 'ACTIVE') return false
  return !arrived(job.tripStage)
}

/** The diversion's end while it lasts, else null. */
export function divertedUntil(hospital: { onDiversionUntil: string | null } | null | undefined, now: number): string | null {
  const until = hospital?.onDiversionUntil ?? null
  if (!until) return null
  const t = Date.parse(until)
  return Number.isNaN(t) || t <= now ? null : until
}
