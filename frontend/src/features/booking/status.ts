import type { Booking, BookingStatus, StageRequest, TimelineEntry, TripStage } from '@/lib/types'
import { S } from '@/strings'

/**
 * The admin dropdown's moves (DESIGN.md 8): PENDING → ACTIVE (stage DISPATCHED, for the
 * crew to accept), any open booking → COMPLETED | CANCELLED; COMPLETED and CANCELLED are final.
 */
const moves: Record<BookingStatus, BookingStatus[]> = {
  PENDING: ['ACTIVE', 'COMPLETED', 'CANCELLED'],
  ACTIVE: ['COMPLETED', 'CANCELLED'],
  COMPLETED: [],
  CANCELLED: [],
}

/** The statuses a booking may move to next; none for final or unknown ones. */
export function nextStatuses(current: string): BookingStatus[] {
  return moves[current as BookingStatus] ?? []
}

/** Still in progress: the ambulance is held and the status can change. */
export function isOpen(status: string): boolean {
  return status === 'PENDING' || status === 'ACTIVE'
}

export const bookingStatuses: BookingStatus[] = ['PENDING', 'ACTIVE', 'COMPLETED', 'CANCELLED']

export const bookingStatusLabel: Record<BookingStatus, string> = {
  PENDING: 'Pending',
  ACTIVE: 'Active',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
}

export const bookingTypeLabel: Record<string, string> = { NORMAL: 'Normal', EMERGENCY: 'Emergency' }

/** The names a booking stored when it was made (spec 9: 'Unknown Hospital' when missing). */
export const bookingHospital = (b: Pick<Booking, 'hospitalName' | 'hospital'>) =>
  b.hospitalName || b.hospital?.name || S.unknownHospital
export const bookingAmbulance = (b: Pick<Booking, 'ambulanceNumber' | 'ambulance'>) =>
  b.ambulanceNumber || b.ambulance?.number || '—'

/** The trip's stages in order (DESIGN.md 8), while the booking is ACTIVE. */
export const tripStages: TripStage[] = ['DISPATCHED', 'EN_ROUTE', 'AT_PICKUP', 'TO_HOSPITAL', 'AT_HOSPITAL']

/** What a status or stage of the timeline is called. */
export const stageLabel = (stage: TimelineEntry['stage'] | string): string =>
  (S.stages as Record<string, string>)[stage] ?? stage

type Trip = { bookingStatus: string; tripStage?: TripStage | null }

/** Where the trip stands, in words: the stage while ACTIVE (else the status). */
export const tripLabel = (b: Trip): string =>
  b.bookingStatus === 'ACTIVE' && b.tripStage ? stageLabel(b.tripStage) : stageLabel(b.bookingStatus)

export type CrewMove = { stage: StageRequest['stage']; label: string }

/**
 * The crew's one next move (DESIGN.md 8): accept a PENDING or DISPATCHED job (→ EN_ROUTE),
 * then stage by stage, and COMPLETED after AT_HOSPITAL; none for anything else.
 */
export function nextCrewMove(b: Trip): CrewMove | null {
  const move = (stage: CrewMove['stage'], label: string): CrewMove => ({ stage, label })
  if (b.bookingStatus === 'PENDING') return move('EN_ROUTE', S.crewMoves.accept)
  if (b.bookingStatus !== 'ACTIVE') return null
  switch (b.tripStage) {
    case 'DISPATCHED':
      return move('EN_ROUTE', S.crewMoves.accept)
    case 'EN_ROUTE':
      return move('AT_PICKUP', S.crewMoves.atPickup)
    case 'AT_PICKUP':
      return move('TO_HOSPITAL', S.crewMoves.toHospital)
    case 'TO_HOSPITAL':
      return move('AT_HOSPITAL', S.crewMoves.atHospital)
    case 'AT_HOSPITAL':
      return move('COMPLETED', S.crewMoves.complete)
    default:
      return null
  }
}

/**
 * The requester may cancel while PENDING, DISPATCHED or EN_ROUTE (once the ambulance is
 * at the pickup, they call the crew). An ACTIVE booking from before the stages had none.
 */
export function canRequesterCancel(b: Trip): boolean {
  if (b.bookingStatus === 'PENDING') return true
  return b.bookingStatus === 'ACTIVE' && (b.tripStage == null || b.tripStage === 'DISPATCHED' || b.tripStage === 'EN_ROUTE')
}

/** Every step a trip goes through, for a timeline that shows what is still to come. */
export const tripSteps: TimelineEntry['stage'][] = ['PENDING', ...tripStages, 'COMPLETED']
