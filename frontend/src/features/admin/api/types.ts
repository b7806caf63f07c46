// TODO(openapi): replace with generated types. The admin routes of DESIGN.md section 8
// (crew accounts, the live map), written by hand until the dispatch backend adds them to
// docs/openapi.yaml.
import type { Pickup, Position, TripStage } from '@/lib/dispatch-types'
import type { AmbulanceStatus, AmbulanceType, BookingStatus, BookingType } from '@/lib/types'

/** A crew account: the driver or paramedic of one ambulance. */
export interface Crew {
  id: number
  username: string
  email: string
  phone: string
  role: 'CREW'
  ambulanceId: number
  createdAt: string
}

export interface CrewPage {
  content: Crew[]
  totalPages: number
  totalElements: number
  page: number
  size: number
}

/** POST /api/admin/crew. */
export interface NewCrew {
  username: string
  email: string
  password: string
  phoneNumber: string
  ambulanceId: number
}

export interface LiveAmbulance {
  id: number
  number: string
  type: AmbulanceType
  status: AmbulanceStatus
  hospitalId: number
  position: Position | null
}

export interface LiveBooking {
  id: number
  bookingType: BookingType
  bookingStatus: BookingStatus
  tripStage: TripStage | null
  pickup: Pickup | null
  ambulanceId: number
}

/** GET /api/admin/live?bbox=: at most 500 of each. */
export interface Live {
  ambulances: LiveAmbulance[]
  openBookings: LiveBooking[]
}
