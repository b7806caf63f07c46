// TODO(openapi): replace with generated types. DESIGN.md section 8's booking shapes,
// written by hand until the dispatch backend adds them to docs/openapi.yaml.
import type { Pickup, Position, TimelineEntry, TripStage } from '@/lib/dispatch-types'
import type { AmbulanceType, BookingRequest, BookingStatus, BookingType, Patient } from '@/lib/types'

/** POST /api/booking/book: without `pickup` the user's stored location is the pickup. */
export type BookRequest = BookingRequest & { pickup?: Pickup }

/** GET /api/booking/{id}/track: where the trip stands. */
export interface Tracking {
  bookingId: number
  bookingStatus: BookingStatus
  bookingType: BookingType
  tripStage: TripStage | null
  timeline: TimelineEntry[]
  pickup: Pickup | null
  hospital: {
    id: number
    name: string
    address: string
    latitude: number | null
    longitude: number | null
    contactInfo: string | null
  }
  ambulance: {
    id: number
    number: string
    type: AmbulanceType
    contactInfo: string | null
    position: Position | null
  }
  /** From the ambulance to the pickup (DISPATCHED, EN_ROUTE) or the hospital (TO_HOSPITAL); null otherwise or without a fresh position. */
  etaMinutes: number | null
  distanceKm: number | null
}

/** PATCH /api/booking/{id}/patient: the details known so far (each one optional). */
export type PatientDetails = Partial<Patient>

/** POST /api/booking/{id}/share: a link to the trip for the family, valid until `expiresAt`. */
export interface ShareLink {
  token: string
  /** "/t/<token>", on this site. */
  url: string
  expiresAt: string
}

/**
 * GET /api/booking/shared/{token}: the trip as the family sees it. No patient, no pickup,
 * no phone or email; 404 (one body) for a link unknown, expired or revoked.
 */
export interface SharedTrip {
  bookingStatus: BookingStatus
  tripStage: TripStage | null
  timeline: TimelineEntry[]
  ambulance: { number: string; type: AmbulanceType; position: Position | null }
  hospital: { name: string; address: string; latitude: number | null; longitude: number | null }
  etaMinutes: number | null
}
