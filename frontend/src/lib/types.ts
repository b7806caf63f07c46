// Friendly names for the HTTP contract's shapes. The shapes themselves are generated from
// docs/openapi.yaml into api-schema.ts (`npm run api-types`; `npm run typecheck` fails
// when that file is out of date): never edit them here.
import type { components } from './api-schema'

type Schemas = components['schemas']

export type Role = Schemas['Role']
export type User = Schemas['User']
export type AuthResponse = Schemas['AuthResponse']
export type RegisterRequest = Schemas['RegisterRequest']
export type LoginRequest = Schemas['LoginRequest']
/**
 * The schema says "email, and both coordinates or neither"; openapi-typescript writes
 * that as a union of its parts, so the body is the part with the fields.
 */
export type ProfileUpdate = Extract<Schemas['ProfileUpdate'], { email: string }>

export type Hospital = Schemas['Hospital']
/** A hospital found by /hospitals/nearest: with its distance in km. */
export type NearestHospital = Schemas['NearestHospital']
export type HospitalPage = Schemas['HospitalPage']
export type AddHospital = Schemas['AddHospital']

export type AmbulanceStatus = Schemas['AmbulanceStatus']
export type AmbulanceType = Schemas['AmbulanceType']
export type Ambulance = Schemas['Ambulance']
export type AmbulanceCounts = Schemas['AmbulanceCounts']
export type AddAmbulance = Schemas['AddAmbulance']

export type BookingStatus = Schemas['BookingStatus']
export type BookingType = Schemas['BookingType']
export type Gender = Schemas['Gender']
export type Patient = Schemas['PatientRequest']
/** A booking's patient: every detail null until known (a one-tap emergency). */
export type PatientDetails = Schemas['PatientDetails']
export type Booking = Schemas['Booking']
export type BookingPage = Schemas['BookingPage']
export type BookingRequest = Schemas['BookingRequest']

/** /admin/stats: users, hospitals, bookings by status and today, the fleet by status. */
export type Stats = Schemas['Stats']
