import { queryRoots } from '@/lib/queryKeys'

export const bookingKeys = {
  all: queryRoots.bookings,
  history: (userId: number) => [...queryRoots.bookings, 'history', userId] as const,
  track: (bookingId: number) => [...queryRoots.bookings, 'track', bookingId] as const,
  shared: (token: string) => [...queryRoots.bookings, 'shared', token] as const,
}

/**
 * The queries kept on the device across reloads (app/persist.ts): a booking's trip
 * (track) and a shared trip, so a page reloaded offline still shows the ambulance coming.
 * Nothing else: no history, profile, admin list or token.
 */
export function isPersistedTripKey(queryKey: readonly unknown[]): boolean {
  const [root, kind] = queryKey
  return root === bookingKeys.all[0] && persistedKinds.includes(kind)
}

const persistedKinds: unknown[] = [bookingKeys.track(0)[1], bookingKeys.shared('')[1]]
