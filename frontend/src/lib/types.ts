// Friendly names for the HTTP contract's shapes. The shapes themselves are generated from
// docs/openapi.yaml into api-schema.ts (`npm run api-types`, run before dev, build and
// typecheck; git-ignored): never write them here.
import type { components } from './api-schema'

type Schemas = components['schemas']

/** USER, ADMIN, and CREW: the driver or paramedic of one ambulance (made by admins only). */
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
export type RefreshRequest = Schemas['RefreshRequest']

export type Hospital = Schemas['Hospital']
/** A hospital found by /hospitals/nearest: with its distance in km. */
export type NearestHospital = Schemas['NearestHospital']
export type HospitalPage = Schemas['HospitalPage']
export type AddHospital = Schemas['AddHospital']

export type AmbulanceStatus = Schemas['AmbulanceStatus']
export type AmbulanceType = Schemas['AmbulanceType']
export type Ambulance = Schemas['Ambulance']
/** ONLINE, OFFLINE, NO_CREW: whether an ambulance's crew can answer now (decision 0020). */
export type CrewPresence = Schemas['CrewPresence']
export type AmbulanceCounts = Schemas['AmbulanceCounts']
export type AddAmbulance = Schemas['AddAmbulance']

export type BookingStatus = Schemas['BookingStatus']
export type BookingType = Schemas['BookingType']
export type Gender = Schemas['Gender']
export type Patient = Schemas['PatientRequest']
/** A booking's patient: every detail null until known (a one-tap emergency). */
export type PatientDetails = Schemas['PatientDetails']
export type Booking = Schemas['Booking']
/**
 * The moves the caller may make on a booking now, as the server decides them (decision 0007,
 * "Moves come from the server"): a requester's CANCELLED, an admin's next statuses, the crew's next step.
 */
export type TripMove = Schemas['TripMoves'][number]
export type BookingPage = Schemas['BookingPage']
/** POST /api/booking/book: without `pickup` the user's stored location is the pickup. */
export type BookingRequest = Schemas['BookingRequest']

// Dispatch (docs/decisions/0007-dispatch-data.md).
/** A pickup as sent: a map pin and, optionally, a landmark (≤ 200 characters). */
export type PickupRequest = Schemas['PickupRequest']
/** A pickup as answered: the landmark absent when there is none. */
export type Pickup = Schemas['Pickup']
export type TripStage = Schemas['TripStage']
/** Every status or stage reached, oldest first. */
export type TimelineEntry = Schemas['TimelineEntry']
/** `stale` after 2 minutes; `source` HOSPITAL: it never reported and its hospital stands in. */
export type Position = Schemas['Position']
/** GET /api/booking/{id}/track: where the trip stands. */
export type Tracking = Schemas['Tracking']
/** GET /api/crew/me: who is signed in, their ambulance (with its position) and its job. */
export type CrewMe = Schemas['CrewMe']
/** PATCH /api/crew/job/stage: the next stage, or COMPLETED after AT_HOSPITAL. */
export type StageRequest = Schemas['StageRequest']
/** PUT /api/crew/location. */
export type PositionReport = Schemas['PositionReport']
/** PATCH /api/crew/status: the crew take their ambulance out of service or back. */
export type CrewStatus = Schemas['CrewStatus']['status']
export type Crew = Schemas['Crew']
export type CrewPage = Schemas['CrewPage']
export type NewCrew = Schemas['NewCrew']
/** GET /api/admin/live?bbox=: at most 500 of each. */
export type Live = Schemas['Live']
export type LiveAmbulance = Live['ambulances'][number]
export type LiveBooking = Live['openBookings'][number]

// One tap to help (docs/requirements.md, "Emergencies and dispatch").
/** POST /api/booking/emergency: every field optional (without `pickup`, the profile's location). */
export type EmergencyRequest = Schemas['EmergencyRequest']
/** Its 409: `hospitals` (the 3 nearest, to call) when none is free; `bookingId` for the user's open emergency. */
export type EmergencyConflict = Schemas['EmergencyConflict']
/** POST /api/booking/{id}/share: `url` is "/t/<token>", on this site, valid until `expiresAt`. */
export type ShareLink = Schemas['ShareLink']
/** GET /api/booking/shared/{token}: the trip as the family sees it; no patient, pickup, phone or email. */
export type SharedTrip = Schemas['SharedTrip']

/** /admin/stats: users, hospitals, bookings by status and today, the fleet by status. */
export type Stats = Schemas['Stats']

// The dispatcher's alerts (decision 0012).
/** UNANSWERED, NO_AMBULANCE (with its pickup) or NOT_RESPONDING; open while neither acknowledged nor closed. */
export type Alert = Schemas['Alert']
export type AlertKind = Alert['kind']
/** GET /api/admin/ambulances/free-near: a free ambulance and its distance (km) from the point. */
export type FreeAmbulance = Schemas['FreeAmbulance']

// Web Push (decision 0014; lib/push).
/** GET /api/push/key: the VAPID application-server key, base64url. */
export type PushKey = Schemas['PushKey']
/** PUT /api/push/subscription: the browser's PushSubscription JSON. */
export type PushSubscriptionBody = Schemas['PushSubscription']
/** DELETE /api/push/subscription. */
export type PushUnsubscribe = Schemas['PushUnsubscribe']

/** The settings a control room changes without a deploy (docs/decisions/0018). */
export type Settings = Schemas['Settings']
export type SettingsChange = Schemas['SettingsChange']
/** One record of the audit trail (docs/decisions/0023): who did what to what, when. */
export type AuditRecord = Schemas['AuditRecord']
export type AuditPage = Schemas['AuditPage']
export type AuditAction = Schemas['AuditAction']
/** The response-time report (docs/decisions/0021-response-time-report.md). */
export type ResponseTimeReport = Schemas['ResponseTimeReport']
export type ResponseTimeRow = Schemas['ResponseTimeRow']
export type IntervalStat = NonNullable<Schemas['IntervalStat']>
export type ReportBin = Schemas['ReportBin']

// The receiving hospital (the contract's `hospital` tag).
/** POST /api/admin/hospital-staff: a HOSPITAL account tied to one hospital. */
export type NewHospitalStaff = Schemas['NewHospitalStaff']
export type HospitalStaff = Schemas['HospitalStaff']
/** GET /api/hospital/incoming: the hospital (with its diversion) and the trips coming to it, most urgent first. */
export type Incoming = Schemas['Incoming']
export type IncomingTrip = Schemas['IncomingTrip']
/** PUT /api/hospital/diversion: until when (in the future, at most 24 h ahead). */
export type DiversionRequest = Schemas['DiversionRequest']
/** PATCH /api/crew/job/destination. */
export type DestinationRequest = Schemas['DestinationRequest']
/** CrewMe's `destination`: the job's destination hospital now, with its diversion. */
export type CrewDestination = NonNullable<CrewMe['destination']>
