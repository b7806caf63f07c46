import type { Catalogue } from '@/i18n/en'
import type { StageRequest, TimelineEntry, TripStage } from '@/lib/types'

// The one place the web app learns what a trip stage means. Every table here is an
// exhaustive Record over the contract's TripStage (generated from docs/openapi.yaml):
// a stage added to the contract fails to compile until it is placed here, and no screen
// reads meaning from a stage's name. The server answers the same questions from one
// table too (`TripStage::leg` in shared/domain/src/booking/trip.rs); the steps to add a
// stage are in docs/architecture.md, "Adding a trip stage".

/** A status or stage of the timeline. */
export type Milestone = TimelineEntry['stage']

/** Where the ambulance is at a stage (the server's `Leg`). */
export type Leg = 'toPickup' | 'atPickup' | 'toHospital' | 'atHospital' | 'handedOver'

/** A step the crew asks for (`PATCH /api/crew/job/stage`): a stage, or COMPLETED. */
export type CrewStep = StageRequest['stage']

export interface StageMeaning<S extends TripStage = TripStage> {
  /** Its place in the trip, from 0. */
  readonly order: number
  readonly leg: Leg
  /** The crew has accepted the job by this stage (decision 0020): not while it waits on a crew. */
  readonly accepted: boolean
  /**
   * What the crew's button says for the step to this stage (its key in the catalogue's
   * `crewMoves`); none for a stage the crew never asks for (DISPATCHED is a dispatcher's).
   */
  readonly button: S extends CrewStep ? keyof Catalogue['crewMoves'] : null
}

/** Every stage's order and meaning. Its label is the catalogue's `stages` entry of the same name. */
export const stageTable: { readonly [S in TripStage]: StageMeaning<S> } = {
  DISPATCHED: { order: 0, leg: 'toPickup', accepted: false, button: null },
  EN_ROUTE: { order: 1, leg: 'toPickup', accepted: true, button: 'accept' },
  AT_PICKUP: { order: 2, leg: 'atPickup', accepted: true, button: 'atPickup' },
  TO_HOSPITAL: { order: 3, leg: 'toHospital', accepted: true, button: 'toHospital' },
  AT_HOSPITAL: { order: 4, leg: 'atHospital', accepted: true, button: 'atHospital' },
  // The crew or the receiving hospital confirms the handover; COMPLETED may also follow AT_HOSPITAL directly.
  HANDED_OVER: { order: 5, leg: 'handedOver', accepted: true, button: 'handedOver' },
}

/** What each leg means to the screens: where the ambulance is driving (its ETA counts down), whether it is past the pickup, at the hospital. */
const legs: Readonly<Record<Leg, { drivingTo: 'pickup' | 'hospital' | null; pastPickup: boolean; arrived: boolean }>> = {
  toPickup: { drivingTo: 'pickup', pastPickup: false, arrived: false },
  atPickup: { drivingTo: null, pastPickup: true, arrived: false },
  toHospital: { drivingTo: 'hospital', pastPickup: true, arrived: false },
  atHospital: { drivingTo: null, pastPickup: true, arrived: true },
  handedOver: { drivingTo: null, pastPickup: true, arrived: true },
}

/** The trip's stages in order (docs/decisions/0007-dispatch-data.md), while the booking is ACTIVE. */
export const tripStages: readonly TripStage[] = (Object.keys(stageTable) as TripStage[]).sort((a, b) => stageTable[a].order - stageTable[b].order)

/** Where the ambulance is at `stage`. */
export const legOf = (stage: TripStage): Leg => stageTable[stage].leg

/**
 * The ambulance has yet to reach the pickup (no stage yet counts as before it): the one rule
 * the server's cancel and reassign follow (`Progress::before_pickup`).
 */
export const beforePickup = (stage: TripStage | null | undefined): boolean => stage == null || !legs[legOf(stage)].pastPickup

/** Where the ambulance is driving at `stage`, so an ETA counts down: the pickup, the hospital, or nowhere (it stands at one). */
export const drivingTo = (stage: TripStage): 'pickup' | 'hospital' | null => legs[legOf(stage)].drivingTo

/** The ambulance is at the hospital (arrived, or handed over): the destination can no longer change. */
export const arrived = (stage: TripStage | null | undefined): boolean => stage != null && legs[legOf(stage)].arrived

/**
 * A timeline step that waits on a crew to accept (DISPATCHED): a PENDING booking the crew
 * accepts goes past it, and a job moved to another ambulance waits there again.
 */
export const awaitsCrew = (step: Milestone): boolean => step in stageTable && !stageTable[step as TripStage].accepted
