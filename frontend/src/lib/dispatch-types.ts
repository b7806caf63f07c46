// TODO(openapi): replace with generated types. The shapes of DESIGN.md section 8 (dispatch)
// and of issue 16 (sessions) that more than one feature uses, written by hand until the
// backends add them to docs/openapi.yaml; then lib/types.ts names the generated ones and
// this file goes.
import type { AuthResponse, Booking, ProfileUpdate, Role } from './types'

/** USER, ADMIN, and CREW: the driver or paramedic of one ambulance (made by admins only). */
export type AnyRole = Role | 'CREW'

/** Login, register and refresh: the access token lives 5 minutes, the refresh token rotates. */
export type SessionAuth = Omit<AuthResponse, 'refreshToken' | 'expiresAt'> & {
  /** Opaque; sent once to POST /api/auth/refresh, which answers a new one. */
  refreshToken?: string
  /** The access token's expiry, RFC 3339. */
  expiresAt?: string
}

/** A new password needs the current one (400 naming `currentPassword` when absent, 403 when wrong). */
export type ProfileChange = ProfileUpdate & { currentPassword?: string }

export interface Pickup {
  latitude: number
  longitude: number
  /** ≤ 200 characters ("gate 2, blue house"). */
  landmark?: string
}

export type TripStage = 'DISPATCHED' | 'EN_ROUTE' | 'AT_PICKUP' | 'TO_HOSPITAL' | 'AT_HOSPITAL'

/** Every status or stage reached, oldest first. */
export interface TimelineEntry {
  stage: TripStage | 'PENDING' | 'ACTIVE' | 'COMPLETED' | 'CANCELLED'
  at: string
}

/**
 * Where an ambulance is: `stale` when reported more than 2 minutes ago. `source`
 * HOSPITAL (or a null position): it never reported and its hospital stands in.
 */
export interface Position {
  latitude: number
  longitude: number
  at: string | null
  stale: boolean
  source?: 'GPS' | 'HOSPITAL'
}

/** A booking with the dispatch additions (null on bookings made before them). */
export type DispatchBooking = Booking & {
  pickup?: Pickup | null
  tripStage?: TripStage | null
  timeline?: TimelineEntry[]
  /** The requester's phone at booking time, for the crew to call. */
  userPhone?: string | null
}
