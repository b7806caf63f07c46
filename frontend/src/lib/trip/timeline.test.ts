import { describe, expect, it } from 'vitest'
import type { TimelineEntry, TripStage } from '@/lib/types'
import { timelineRows, timelineRowsWithMoves } from './timeline'

const at = (m: number) => `2026-03-01T10:${String(m).padStart(2, '0')}:00Z`
/** A trip from its status, its stage and its timeline written as "PENDING@0 ACTIVE@2". */
const trip = (bookingStatus: string, tripStage: TripStage | null, timeline: string) => ({
  bookingStatus,
  tripStage,
  timeline: timeline.split(' ').map((step) => {
    const [stage, minute] = step.split('@')
    return { stage: stage as TimelineEntry['stage'], at: at(Number(minute)) }
  }),
})
/** The rows as "STAGE:state@minute" ("@minute" only for a step reached), one space apart. */
const rows = (t: ReturnType<typeof trip>) =>
  timelineRows(t)
    .map((r) => `${r.stage}:${r.state}${r.at ? `@${r.at.slice(14, 16)}` : ''}`)
    .join(' ')

describe('timelineRows', () => {
  // What happened (status, stage, timeline), then the rows the requester sees.
  it.each([
    ['a new booking: requested now, every step to come', trip('PENDING', null, 'PENDING@0'),
      'PENDING:current@00 DISPATCHED:todo EN_ROUTE:todo AT_PICKUP:todo TO_HOSPITAL:todo AT_HOSPITAL:todo HANDED_OVER:todo COMPLETED:todo'],
    ['accepted straight from PENDING: DISPATCHED was skipped, so it is left out', trip('ACTIVE', 'AT_PICKUP', 'PENDING@0 ACTIVE@2 EN_ROUTE@2 AT_PICKUP@9'),
      'PENDING:done@00 EN_ROUTE:done@02 AT_PICKUP:current@09 TO_HOSPITAL:todo AT_HOSPITAL:todo HANDED_OVER:todo COMPLETED:todo'],
    ['dispatched by an admin, then accepted', trip('ACTIVE', 'EN_ROUTE', 'PENDING@0 ACTIVE@1 DISPATCHED@1 EN_ROUTE@3'),
      'PENDING:done@00 DISPATCHED:done@01 EN_ROUTE:current@03 AT_PICKUP:todo TO_HOSPITAL:todo AT_HOSPITAL:todo HANDED_OVER:todo COMPLETED:todo'],
    ['completed: every step done, completed last', trip('COMPLETED', 'AT_HOSPITAL', 'PENDING@0 ACTIVE@1 EN_ROUTE@2 AT_PICKUP@3 TO_HOSPITAL@4 AT_HOSPITAL@5 COMPLETED@6'),
      'PENDING:done@00 EN_ROUTE:done@02 AT_PICKUP:done@03 TO_HOSPITAL:done@04 AT_HOSPITAL:done@05 COMPLETED:current@06'],
    ['completed without a handover on record: the handover is left out, not shown as missed', trip('COMPLETED', 'AT_HOSPITAL', 'PENDING@0 ACTIVE@1 EN_ROUTE@2 AT_PICKUP@3 TO_HOSPITAL@4 AT_HOSPITAL@5 COMPLETED@6'),
      'PENDING:done@00 EN_ROUTE:done@02 AT_PICKUP:done@03 TO_HOSPITAL:done@04 AT_HOSPITAL:done@05 COMPLETED:current@06'],
    ['handed over: the handover with its time, then completed to come', trip('ACTIVE', 'HANDED_OVER', 'PENDING@0 ACTIVE@1 EN_ROUTE@2 AT_PICKUP@3 TO_HOSPITAL@4 AT_HOSPITAL@5 HANDED_OVER@7'),
      'PENDING:done@00 EN_ROUTE:done@02 AT_PICKUP:done@03 TO_HOSPITAL:done@04 AT_HOSPITAL:done@05 HANDED_OVER:current@07 COMPLETED:todo'],
    ['completed after the handover', trip('COMPLETED', 'HANDED_OVER', 'PENDING@0 ACTIVE@1 EN_ROUTE@2 AT_PICKUP@3 TO_HOSPITAL@4 AT_HOSPITAL@5 HANDED_OVER@7 COMPLETED@8'),
      'PENDING:done@00 EN_ROUTE:done@02 AT_PICKUP:done@03 TO_HOSPITAL:done@04 AT_HOSPITAL:done@05 HANDED_OVER:done@07 COMPLETED:current@08'],
    ['cancelled: what it reached, then the cancellation; nothing to come', trip('CANCELLED', 'EN_ROUTE', 'PENDING@0 ACTIVE@1 EN_ROUTE@1 CANCELLED@4'),
      'PENDING:done@00 EN_ROUTE:done@01 CANCELLED:current@04'],
  ])('%s', (_, t, expected) => expect(rows(t)).toBe(expected))
})

describe('timelineRowsWithMoves', () => {
  /** Like `trip`, with "REASSIGNED@m" entries moved from AMB-01 for want of an answer. */
  const moved = (bookingStatus: string, tripStage: TripStage | null, timeline: string) => {
    const t = trip(bookingStatus, tripStage, timeline)
    return { ...t, timeline: t.timeline.map((e): TimelineEntry => (e.stage === 'REASSIGNED' ? { ...e, fromAmbulance: 'AMB-01', reason: 'NO_ANSWER' } : e)) }
  }
  const movedRows = (t: ReturnType<typeof trip>) =>
    timelineRowsWithMoves(t)
      .map((r) => `${r.stage}:${r.state}${r.at ? `@${r.at.slice(14, 16)}` : ''}`)
      .join(' ')

  it.each([
    ['waiting on the new crew: the move, then "assigned" now, at the move', moved('ACTIVE', 'DISPATCHED', 'PENDING@0 ACTIVE@0 DISPATCHED@0 REASSIGNED@1'),
      'PENDING:done@00 REASSIGNED:done@01 DISPATCHED:current@01 EN_ROUTE:todo AT_PICKUP:todo TO_HOSPITAL:todo AT_HOSPITAL:todo HANDED_OVER:todo COMPLETED:todo'],
    ['moved twice', moved('ACTIVE', 'DISPATCHED', 'PENDING@0 ACTIVE@0 DISPATCHED@0 REASSIGNED@1 REASSIGNED@2'),
      'PENDING:done@00 REASSIGNED:done@01 REASSIGNED:done@02 DISPATCHED:current@02 EN_ROUTE:todo AT_PICKUP:todo TO_HOSPITAL:todo AT_HOSPITAL:todo HANDED_OVER:todo COMPLETED:todo'],
    ['accepted after the move: the move between assigned and on the way', moved('ACTIVE', 'EN_ROUTE', 'PENDING@0 ACTIVE@0 DISPATCHED@0 REASSIGNED@1 EN_ROUTE@3'),
      'PENDING:done@00 DISPATCHED:done@00 REASSIGNED:done@01 EN_ROUTE:current@03 AT_PICKUP:todo TO_HOSPITAL:todo AT_HOSPITAL:todo HANDED_OVER:todo COMPLETED:todo'],
    ['a pending booking moved by a dispatcher: after "requested"', moved('PENDING', null, 'PENDING@0 REASSIGNED@3'),
      'PENDING:current@00 REASSIGNED:done@03 DISPATCHED:todo EN_ROUTE:todo AT_PICKUP:todo TO_HOSPITAL:todo AT_HOSPITAL:todo HANDED_OVER:todo COMPLETED:todo'],
    ['cancelled after a move', moved('CANCELLED', 'DISPATCHED', 'PENDING@0 ACTIVE@0 DISPATCHED@0 REASSIGNED@1 CANCELLED@4'),
      'PENDING:done@00 DISPATCHED:done@00 REASSIGNED:done@01 CANCELLED:current@04'],
    ['no move: the same rows as timelineRows', trip('ACTIVE', 'EN_ROUTE', 'PENDING@0 ACTIVE@1 DISPATCHED@1 EN_ROUTE@3'),
      'PENDING:done@00 DISPATCHED:done@01 EN_ROUTE:current@03 AT_PICKUP:todo TO_HOSPITAL:todo AT_HOSPITAL:todo HANDED_OVER:todo COMPLETED:todo'],
  ])('%s', (_, t, expected) => expect(movedRows(t)).toBe(expected))

  it('keeps where the job came from and why', () => {
    const [, move] = timelineRowsWithMoves(moved('ACTIVE', 'DISPATCHED', 'PENDING@0 ACTIVE@0 DISPATCHED@0 REASSIGNED@1'))
    expect(move).toEqual({ stage: 'REASSIGNED', at: at(1), state: 'done', fromAmbulance: 'AMB-01', reason: 'NO_ANSWER' })
  })
})
