import { queryRoots } from '@/lib/queryKeys'

export const bookingKeys = {
  all: queryRoots.bookings,
  history: (userId: number) => [...queryRoots.bookings, 'history', userId] as const,
  track: (bookingId: number) => [...queryRoots.bookings, 'track', bookingId] as const,
  shared: (token: string) => [...queryRoots.bookings, 'shared', token] as const,
}
