import type { Booking, BookingStatus, TimelineEntry, TripMove, TripStage } from '@/lib/types'
import { S } from '@/strings'
import { type Milestone, tripStages } from './stages'

export { tripStages }

// Who may move a booking where is the server's alone: every booking and tracking answer
// carries the caller's `moves` (decision 0007, "Moves come from the server"). This file
// only names them.

/** Still in progress: the ambulance is held and the status can change. */
export function isOpen(status: string): boolean {
  return status === 'PENDING' || status === 'ACTIVE'
}

export const bookingStatuses: BookingStatus[] = ['PENDING', 'ACTIVE', 'COMPLETED', 'CANCELLED']

// Getters: each read is in the language of the moment.
export const bookingStatusLabel: Readonly<Record<BookingStatus, string>> = {
  get PENDING() { return S.bookingStatus.PENDING },
  get ACTIVE() { return S.bookingStatus.ACTIVE },
  get COMPLETED() { return S.bookingStatus.COMPLETED },
  get CANCELLED() { return S.bookingStatus.CANCELLED },
}

export const bookingTypeLabel: Readonly<Record<string, string>> = {
  get NORMAL() { return S.bookingType.NORMAL },
  get EMERGENCY() { return S.bookingType.EMERGENCY },
}

/** The names a booking stored when it was made ('Unknown Hospital' when missing: docs/requirements.md, "Hospitals and the home page"). */
export const bookingHospital = (b: Pick<Booking, 'hospitalName' | 'hospital'>) =>
  b.hospitalName || b.hospital?.name || S.unknownHospital
export const bookingAmbulance = (b: Pick<Booking, 'ambulanceNumber' | 'ambulance'>) =>
  b.ambulanceNumber || b.ambulance?.number || '—'

/** What a status or stage of the timeline is called (the catalogue names every one: its type says so). */
export const stageLabel = (stage: Milestone): string => S.stages[stage]

type Trip = { bookingStatus: BookingStatus; tripStage?: TripStage | null }

/** Where the trip stands, in words: the stage while ACTIVE (else the status). */
export const tripLabel = (b: Trip): string =>
  b.bookingStatus === 'ACTIVE' && b.tripStage ? stageLabel(b.tripStage) : stageLabel(b.bookingStatus)

/** The statuses the admin's dropdown may offer: those of the server's `moves`. */
export function statusMoves(moves: readonly TripMove[]): BookingStatus[] {
  return moves.filter((m): m is TripMove & BookingStatus => m in bookingStatusLabel)
}

/** The caller may cancel (the requester until the pickup, an admin while open): the server says so. */
export const mayCancel = (b: { moves: readonly TripMove[] }): boolean => b.moves.includes('CANCELLED')

/** Every step a trip goes through, for a timeline that shows what is still to come. */
export const tripSteps: readonly TimelineEntry['stage'][] = ['PENDING', ...tripStages, 'COMPLETED']
