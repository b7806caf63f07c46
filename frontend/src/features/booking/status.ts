import type { Booking, BookingStatus } from '@/lib/types'
import { S } from '@/strings'

/**
 * The server's state machine (DESIGN.md 4): PENDING → ACTIVE | CANCELLED,
 * ACTIVE → COMPLETED | CANCELLED; COMPLETED and CANCELLED are final.
 */
const moves: Record<BookingStatus, BookingStatus[]> = {
  PENDING: ['ACTIVE', 'CANCELLED'],
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
