import type { Ambulance, Booking, Hospital, IncomingTrip, NearestHospital, SharedTrip, Tracking, User } from '@/lib/types'

export const demoUser: User = {
  id: 7,
  username: 'demo',
  email: 'demo@example.com',
  phone: '+15550100',
  latitude: 30.67,
  longitude: 74.33,
  role: 'USER',
  createdAt: '2026-01-15T10:00:00Z',
}

export const adminUser: User = { ...demoUser, id: 1, username: 'admin', email: 'admin@example.com', latitude: null, longitude: null, role: 'ADMIN' }

/** A hospital; with a distance, as /hospitals/nearest finds it. */
export const hospital = (id: number, name: string, distance?: number): Hospital | NearestHospital => ({
  id,
  name,
  address: `${id} Main Road`,
  latitude: 30.6 + id / 100,
  longitude: 74.3,
  contactInfo: '+91 100 200',
  onDiversionUntil: null,
  ...(distance === undefined ? {} : { distance }),
})

export const ambulance = (id: number, hospitalId: number, status: Ambulance['status'] = 'AVAILABLE'): Ambulance => ({
  id,
  number: `PB-${id}`,
  driverInfo: `Driver ${id}`,
  status,
  type: 'BLS',
  hospitalId,
  hospital: { id: hospitalId, name: `Hospital ${hospitalId}`, address: `${hospitalId} Main Road` },
  notResponding: null,
  crewPresence: 'ONLINE',
})

export function booking(id: number, overrides: Partial<Booking> = {}): Booking {
  return {
    id,
    bookingStatus: 'PENDING',
    bookingType: 'NORMAL',
    bookingTime: '2026-03-01T09:30:00Z',
    userId: 7,
    username: 'demo',
    userEmail: 'demo@example.com',
    hospitalId: 3,
    hospitalName: 'City Hospital',
    hospital: { id: 3, name: 'City Hospital', address: '3 Main Road' },
    // The receiving hospital: by default the ambulance's.
    destinationHospitalId: 3,
    destinationHospitalName: 'City Hospital',
    ambulanceId: 30 + id,
    ambulanceNumber: `PB-${30 + id}`,
    ambulance: { id: 30 + id, number: `PB-${30 + id}`, type: 'BLS', driverInfo: 'Ravi Kumar' },
    patient: { name: `Patient ${id}`, age: 40, gender: 'Female', condition: 'Chest pain' },
    // What a booking made before dispatch existed reads as.
    userPhone: null,
    pickup: null,
    tripStage: null,
    timeline: [{ stage: 'PENDING', at: '2026-03-01T09:30:00Z' }],
    answerBy: null,
    erased: null,
    // The caller's moves are the server's: a test that shows one says which (none by default).
    moves: [],
    accepted: false,
    ...overrides,
  }
}

/** An RFC 3339 time `ms` before now. */
export const ago = (ms: number) => new Date(Date.now() - ms).toISOString()

/** GET /booking/12/track: an emergency on its way to the pickup, its position 10 s old. */
export const tracking = (overrides: Partial<Tracking> = {}): Tracking => ({
  bookingId: 12,
  bookingStatus: 'ACTIVE',
  bookingType: 'EMERGENCY',
  tripStage: 'EN_ROUTE',
  timeline: [
    { stage: 'PENDING', at: '2026-03-01T09:30:00Z' },
    { stage: 'ACTIVE', at: '2026-03-01T09:31:00Z' },
    { stage: 'EN_ROUTE', at: '2026-03-01T09:31:00Z' },
  ],
  pickup: { latitude: 30.7, longitude: 74.31, landmark: 'gate 2' },
  hospital: { id: 3, name: 'City Hospital', address: '3 Main Road', latitude: 30.63, longitude: 74.3, contactInfo: '+91 100 200' },
  ambulance: { id: 31, number: 'PB-31', type: 'ALS', contactInfo: '+91 98140 00031', position: { latitude: 30.68, longitude: 74.32, at: ago(10_000), stale: false, source: 'GPS' } },
  etaMinutes: 7,
  distanceKm: 2.4,
  answerBy: null,
  stillLooking: false,
  // EN_ROUTE: its crew accepted (decision 0020).
  accepted: true,
  // The requester may still cancel while the ambulance is on its way (the server says so).
  moves: ['CANCELLED'],
  destinationHospitalName: 'City Hospital',
  ...overrides,
})

/** GET /booking/shared/{token}: what the family's link shows of `tracking()`. */
export function sharedTrip(overrides: Partial<SharedTrip> = {}): SharedTrip {
  const { bookingStatus, tripStage, timeline, ambulance, hospital, etaMinutes, answerBy, stillLooking, accepted, destinationHospitalName } = tracking()
  return {
    bookingStatus,
    tripStage,
    timeline,
    ambulance: { number: ambulance.number, type: ambulance.type, position: ambulance.position },
    hospital: { name: hospital.name, address: hospital.address, latitude: hospital.latitude, longitude: hospital.longitude },
    etaMinutes,
    answerBy,
    stillLooking,
    accepted,
    destinationHospitalName,
    ...overrides,
  }
}

/** A trip on the receiving hospital's board: an ALS ambulance on its way, 5 min out. */
export const incomingTrip = (bookingId: number, over: Partial<IncomingTrip> = {}): IncomingTrip => ({
  bookingId,
  bookingType: 'NORMAL',
  bookingStatus: 'ACTIVE',
  stage: 'TO_HOSPITAL',
  ambulance: { id: bookingId + 30, number: `PB-${bookingId + 30}`, type: 'ALS' },
  crewPhone: '+91 98140 00031',
  etaSeconds: 300,
  patient: { age: null, gender: null, condition: null },
  arrivedAt: null,
  handedOverAt: null,
  ...over,
})
