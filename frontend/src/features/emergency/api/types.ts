// TODO(openapi): replace with generated types. POST /api/booking/emergency as DESIGN.md
// section 8 writes it, by hand until the emergency backend adds it to docs/openapi.yaml.
import type { Pickup } from '@/lib/dispatch-types'
import type { AmbulanceType, Patient } from '@/lib/types'

/** The body: where to come; the ambulance type and the patient are optional (each field of it too). */
export interface EmergencyRequest {
  pickup: Pickup
  ambulanceType?: AmbulanceType
  patient?: Partial<Patient>
}

/** One of the 3 nearest hospitals a 409 `No ambulance is available near you` lists. */
export interface NearbyHospital {
  id: number
  name: string
  address?: string
  latitude?: number | null
  longitude?: number | null
  contactInfo?: string | null
  /** Kilometres from the pickup, when the server says. */
  distance?: number | null
}

/**
 * A 409's body: `hospitals` when no ambulance is free; `bookingId` (when the server
 * names it) when the user already has an open emergency booking.
 */
export interface EmergencyConflict {
  message?: string
  hospitals?: NearbyHospital[]
  bookingId?: number
}
