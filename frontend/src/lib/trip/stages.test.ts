import { describe, expect, it } from 'vitest'
import type { TripStage } from '@/lib/types'
import { arrived, awaitsCrew, beforePickup, drivingTo, legOf, stageTable, tripStages } from './stages'
import { tripSteps } from './status'

describe('the stage table', () => {
  it('gives every stage its own place, and the trip its order from it', () => {
    const orders = Object.values(stageTable).map((m) => m.order)
    expect([...orders].sort((a, b) => a - b)).toEqual(orders.map((_, i) => i))
    expect(tripStages).toEqual(['DISPATCHED', 'EN_ROUTE', 'AT_PICKUP', 'TO_HOSPITAL', 'AT_HOSPITAL', 'HANDED_OVER'])
    expect(tripSteps[0]).toBe('PENDING')
    expect(tripSteps.at(-1)).toBe('COMPLETED')
  })

  // The server's rules say the same (trip.rs: one_before_pickup_rule_for_every_place).
  it('says before the pickup for no stage yet, DISPATCHED and EN_ROUTE only', () => {
    expect(beforePickup(null)).toBe(true)
    expect(tripStages.filter((s) => beforePickup(s))).toEqual(['DISPATCHED', 'EN_ROUTE'])
  })

  it('says where the ambulance drives, and when it has arrived', () => {
    const driving = Object.fromEntries(tripStages.map((s) => [s, drivingTo(s)]))
    expect(driving).toEqual({ DISPATCHED: 'pickup', EN_ROUTE: 'pickup', AT_PICKUP: null, TO_HOSPITAL: 'hospital', AT_HOSPITAL: null, HANDED_OVER: null })
    expect(tripStages.filter((s) => arrived(s))).toEqual(['AT_HOSPITAL', 'HANDED_OVER'])
    expect(arrived(null)).toBe(false)
    expect(legOf('HANDED_OVER' satisfies TripStage)).toBe('handedOver')
  })

  it('has the job wait on a crew at DISPATCHED only', () => {
    expect(tripSteps.filter(awaitsCrew)).toEqual(['DISPATCHED'])
    expect(awaitsCrew('REASSIGNED')).toBe(false)
  })
})
