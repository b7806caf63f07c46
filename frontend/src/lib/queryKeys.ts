// Every query key starts with one of these roots. Each feature builds its keys in its
// own factory (features/<area>/api/keys.ts) under its root, so invalidating a root
// refreshes every view of that data. Which roots a change touches is said here, once:
// a feature invalidates another's data without importing that feature.
import type { QueryClient } from '@tanstack/react-query'

export const queryRoots = {
  hospitals: ['hospitals'],
  ambulances: ['ambulances'],
  bookings: ['bookings'],
  admin: ['admin'],
  home: ['home-stats'],
  profile: ['profile'],
  crew: ['crew'],
  incoming: ['incoming'],
} as const

export type QueryRoot = keyof typeof queryRoots

export function invalidate(client: QueryClient, roots: QueryRoot[]) {
  for (const root of roots) void client.invalidateQueries({ queryKey: queryRoots[root] })
}

/** A booking made, cancelled or moved: bookings, the fleet's statuses, the crew's job and every count built on them. */
export const refreshAfterBooking = (client: QueryClient) => invalidate(client, ['bookings', 'ambulances', 'admin', 'home', 'crew', 'incoming'])

/** A hospital or an ambulance added, removed or changed (by an admin or its crew): every view of the fleet. */
export const refreshAfterFleetChange = (client: QueryClient) => invalidate(client, ['admin', 'hospitals', 'ambulances', 'home', 'crew'])

/** A hospital's diversion set or ended: the hospital search, the crew's destination and the incoming board. */
export const refreshAfterDiversion = (client: QueryClient) => invalidate(client, ['hospitals', 'crew', 'incoming', 'admin'])
