// TODO(openapi): replace with generated types. DESIGN.md section 8's booking shapes,
// written by hand until the dispatch backend adds them to docs/openapi.yaml.
import type { Pickup, Position, TimelineEntry, TripStage } from '@/lib/dispatch-types'
import type { AmbulanceType, BookingRequest, BookingStatus, BookingType } from '@/lib/types'

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
