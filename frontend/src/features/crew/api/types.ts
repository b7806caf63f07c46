// TODO(openapi): replace with generated types. The crew routes of DESIGN.md section 8,
// written by hand until the dispatch backend adds them to docs/openapi.yaml.
import type { DispatchBooking, Position, TripStage } from '@/lib/dispatch-types'
import type { Ambulance } from '@/lib/types'

/** GET /api/crew/me: who is signed in, their ambulance (with its position) and its job. */
export interface CrewMe {
  crew: { id: number; username: string; phone: string }
  ambulance: Ambulance & { position: Position | null }
  /** The booking the ambulance holds (PENDING: to accept; ACTIVE: under way), or null. */
  job: DispatchBooking | null
}

/** PATCH /api/crew/job/stage: the next stage, or COMPLETED after AT_HOSPITAL. */
export interface StageRequest {
  bookingId: number
  stage: TripStage | 'COMPLETED'
}

/** PUT /api/crew/location. */
export interface PositionReport {
  latitude: number
  longitude: number
  accuracyM?: number
  /** When the phone took the fix (RFC 3339). */
  recordedAt: string
}

/** PATCH /api/crew/status: the crew take their ambulance out of service or back. */
export type CrewStatus = 'AVAILABLE' | 'MAINTENANCE'
