// The HTTP contract of DESIGN.md section 5.
export type Role = 'USER' | 'ADMIN'

export interface User {
  id: number
  username: string
  email: string
  phone: string
  latitude: number | null
  longitude: number | null
  role: Role
  createdAt: string
}

export interface AuthResponse {
  token: string
  user?: User
  role: Role
  id: number
}

export interface Hospital {
  id: number
  name: string
  address: string
  latitude: number
  longitude: number
  contactInfo?: string | null
  distance?: number | null
}

export type AmbulanceStatus = 'AVAILABLE' | 'ON_DUTY' | 'MAINTENANCE'
export type AmbulanceType = 'BLS' | 'ALS' | 'PTA'

export interface Ambulance {
  id: number
  number: string
  driverInfo?: string | null
  status: AmbulanceStatus
  type: AmbulanceType
  contactInfo?: string | null
  hospitalId: number
  hospital: { id: number; name: string; address: string }
}

export interface AmbulanceCounts {
  total: number
  available: number
  onDuty: number
  maintenance: number
}

export type BookingStatus = 'PENDING' | 'ACTIVE' | 'COMPLETED' | 'CANCELLED'
export type BookingType = 'NORMAL' | 'EMERGENCY'
export type Gender = 'Male' | 'Female' | 'Other'

export interface Patient {
  name: string
  age: number
  gender: Gender
  condition: string
}

export interface Booking {
  id: number
  bookingStatus: BookingStatus
  bookingType: BookingType
  bookingTime: string
  userId: number
  username: string
  userEmail: string
  hospitalId: number
  hospitalName: string
  hospital: { id: number; name: string; address: string }
  ambulanceId: number
  ambulanceNumber: string
  ambulance: { id: number; number: string; type: AmbulanceType; driverInfo?: string | null }
  patient: Patient
}

export interface Page<T> {
  content: T[]
  totalPages: number
  totalElements: number
  page: number
  size: number
}
