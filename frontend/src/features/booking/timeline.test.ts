import { describe, expect, it } from 'vitest'
import { timelineRows } from './timeline'

const at = (m: number) => `2026-03-01T10:${String(m).padStart(2, '0')}:00Z`
const rows = (trip: Parameters<typeof timelineRows>[0]) => timelineRows(trip).map((r) => `${r.stage}:${r.state}${r.at ? `@${r.at.slice(14, 16)}` : ''}`)

describe('timelineRows', () => {
  it('a new booking: requested now, every step to come', () => {
    expect(rows({ bookingStatus: 'PENDING', tripStage: null, timeline: [{ stage: 'PENDING', at: at(0) }] })).toEqual([
      'PENDING:current@00',
      'DISPATCHED:todo',
      'EN_ROUTE:todo',
      'AT_PICKUP:todo',
      'TO_HOSPITAL:todo',
      'AT_HOSPITAL:todo',
      'COMPLETED:todo',
    ])
  })

  it('accepted straight from PENDING: DISPATCHED was skipped, so it is left out', () => {
    const timeline = [
      { stage: 'PENDING', at: at(0) },
      { stage: 'ACTIVE', at: at(2) },
      { stage: 'EN_ROUTE', at: at(2) },
      { stage: 'AT_PICKUP', at: at(9) },
    ] as const
    expect(rows({ bookingStatus: 'ACTIVE', tripStage: 'AT_PICKUP', timeline: [...timeline] })).toEqual([
      'PENDING:done@00',
      'EN_ROUTE:done@02',
      'AT_PICKUP:current@09',
      'TO_HOSPITAL:todo',
      'AT_HOSPITAL:todo',
      'COMPLETED:todo',
    ])
  })

  it('dispatched by an admin, then accepted', () => {
    const timeline = [
      { stage: 'PENDING', at: at(0) },
      { stage: 'ACTIVE', at: at(1) },
      { stage: 'DISPATCHED', at: at(1) },
      { stage: 'EN_ROUTE', at: at(3) },
    ] as const
    expect(rows({ bookingStatus: 'ACTIVE', tripStage: 'EN_ROUTE', timeline: [...timeline] }).slice(0, 4)).toEqual([
      'PENDING:done@00',
      'DISPATCHED:done@01',
      'EN_ROUTE:current@03',
      'AT_PICKUP:todo',
    ])
  })

  it('completed: every step done, completed last', () => {
    const stages = ['PENDING', 'ACTIVE', 'EN_ROUTE', 'AT_PICKUP', 'TO_HOSPITAL', 'AT_HOSPITAL', 'COMPLETED'] as const
    const timeline = stages.map((stage, i) => ({ stage, at: at(i) }))
    expect(rows({ bookingStatus: 'COMPLETED', tripStage: 'AT_HOSPITAL', timeline })).toEqual([
      'PENDING:done@00',
      'EN_ROUTE:done@02',
      'AT_PICKUP:done@03',
      'TO_HOSPITAL:done@04',
      'AT_HOSPITAL:done@05',
      'COMPLETED:current@06',
    ])
  })

  it('cancelled: what it reached, then the cancellation; nothing to come', () => {
    const timeline = [
      { stage: 'PENDING', at: at(0) },
      { stage: 'ACTIVE', at: at(1) },
      { stage: 'EN_ROUTE', at: at(1) },
      { stage: 'CANCELLED', at: at(4) },
    ] as const
    expect(rows({ bookingStatus: 'CANCELLED', tripStage: 'EN_ROUTE', timeline: [...timeline] })).toEqual([
      'PENDING:done@00',
      'EN_ROUTE:done@01',
      'CANCELLED:current@04',
    ])
  })

  it('an ACTIVE booking from before the stages: confirmed now', () => {
    expect(rows({ bookingStatus: 'ACTIVE', tripStage: null, timeline: [{ stage: 'PENDING', at: at(0) }] })).toEqual([
      'PENDING:done@00',
      'ACTIVE:current',
      'COMPLETED:todo',
    ])
  })
})
