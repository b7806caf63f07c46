import { queryRoots } from '@/lib/queryKeys'

export const adminKeys = {
  all: queryRoots.admin,
  ambulances: () => [...queryRoots.admin, 'ambulances'] as const,
  bookings: (page: number, size: number) => [...queryRoots.admin, 'bookings', page, size] as const,
  booking: (id: number) => [...queryRoots.admin, 'booking', id] as const,
  stats: () => [...queryRoots.admin, 'stats'] as const,
  crew: () => [...queryRoots.admin, 'crew'] as const,
  live: (bbox: string) => [...queryRoots.admin, 'live', bbox] as const,
  alerts: () => [...queryRoots.admin, 'alerts'] as const,
  freeNear: (lat: number, lng: number) => [...queryRoots.admin, 'free-near', lat, lng] as const,
  settings: () => [...queryRoots.admin, 'settings'] as const,
  /** Every page of the audit trail, whatever the filter. */
  auditAll: () => [...queryRoots.admin, 'audit'] as const,
  audit: (filter: { bookingId?: number; ambulanceId?: number; adminId?: number }) => [...queryRoots.admin, 'audit', filter] as const,
}
