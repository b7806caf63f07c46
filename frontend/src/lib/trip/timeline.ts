import type { TimelineEntry, TripStage } from '@/lib/types'
import { awaitsCrew } from './stages'
import { tripSteps } from './status'

export type StepState = 'done' | 'current' | 'todo'

export interface TimelineRow {
  stage: TimelineEntry['stage']
  /** When it was reached; null for a step still to come. */
  at: string | null
  state: StepState
  /** REASSIGNED only: the ambulance the job left, and why. */
  fromAmbulance?: string
  reason?: TimelineEntry['reason']
}

/** The REASSIGNED entries, oldest first: each time the job moved to another ambulance. */
export const reassignments = (timeline: readonly TimelineEntry[] | undefined) => (timeline ?? []).filter((e) => e.stage === 'REASSIGNED')

/**
 * The trip's steps with each move to another ambulance (REASSIGNED) among them, by time.
 * While the job waits on its new crew (DISPATCHED), the moves come before that step,
 * which then shows when the current ambulance got the job: the last move.
 */
export function timelineRowsWithMoves(trip: Parameters<typeof timelineRows>[0]): TimelineRow[] {
  const rows = timelineRows(trip)
  for (const move of reassignments(trip.timeline)) {
    const row: TimelineRow = { stage: 'REASSIGNED', at: move.at, state: 'done', fromAmbulance: move.fromAmbulance, reason: move.reason }
    const before = rows.findIndex(
      (r) => r.state === 'todo' || (r.at !== null && r.at > move.at) || (r.state === 'current' && awaitsCrew(r.stage)),
    )
    if (before < 0) rows.push(row)
    else rows.splice(before, 0, row)
  }
  const current = rows.findIndex((r) => r.state === 'current')
  const previous = rows[current - 1]
  if (rows[current] && awaitsCrew(rows[current].stage) && previous?.stage === 'REASSIGNED') rows[current] = { ...rows[current]!, at: previous.at }
  return rows
}

/**
 * The steps of a trip for the requester: each one reached with its time, the last one
 * reached as "now", and (while the booking is open) the ones still to come. A step the
 * trip went past without stopping (a PENDING booking the crew accepted skips
 * DISPATCHED) is left out; ACTIVE adds nothing a stage does not say already.
 */
export function timelineRows(trip: { bookingStatus: string; tripStage?: TripStage | null; timeline?: TimelineEntry[] }): TimelineRow[] {
  const reached = new Map<string, string>()
  for (const entry of trip.timeline ?? []) if (!reached.has(entry.stage)) reached.set(entry.stage, entry.at)
  // Where the trip is now: its status, or its stage while ACTIVE (an ACTIVE booking
  // always has one; the type allows null for a PENDING one).
  const now = trip.bookingStatus === 'ACTIVE' ? (trip.tripStage ?? 'DISPATCHED') : trip.bookingStatus
  if (!reached.has(now)) reached.set(now, '')

  if (trip.bookingStatus === 'CANCELLED') {
    // The steps it reached, oldest first, ending with the cancellation.
    const order = (stage: string) => (stage === 'CANCELLED' ? Infinity : tripSteps.indexOf(stage as TimelineRow['stage']))
    return [...reached.entries()]
      .filter(([stage]) => stage !== 'ACTIVE' && order(stage) >= 0)
      .sort(([a], [b]) => order(a) - order(b))
      .map(([stage, at]) => ({ stage: stage as TimelineRow['stage'], at: at || null, state: stage === 'CANCELLED' ? 'current' : 'done' }))
  }

  const steps: TimelineRow['stage'][] = tripSteps.filter((s) => !awaitsCrew(s) || reached.has(s) || now === 'PENDING')
  const currentIndex = steps.indexOf(now as TimelineRow['stage'])
  return steps.flatMap((stage, i): TimelineRow[] => {
    if (i < currentIndex) return reached.has(stage) ? [{ stage, at: reached.get(stage) || null, state: 'done' }] : []
    if (i === currentIndex) return [{ stage, at: reached.get(stage) || null, state: 'current' }]
    return [{ stage, at: null, state: 'todo' }]
  })
}
