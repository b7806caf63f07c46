// The trip pages' last answers kept on the device (docs/decisions/0010-trip-on-the-device.md):
// TanStack Query's own persistence, to localStorage, of the trip queries only, so a trip
// page reloaded with no connection still shows the ambulance coming, its stage and its
// last ETA with their true age.
import type { Query } from '@tanstack/react-query'
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister'
import type { Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client'
import { ApiError } from '@/lib/api'
import { getSession } from '@/lib/session'
import { isPersistedTripKey } from '@/features/booking'

/** The localStorage key of the persisted trips. */
export const TRIP_CACHE_KEY = 'ambucare-trips'

/** A trip older than this is dropped, not shown: a day covers any trip and its aftermath. */
export const TRIP_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000

/**
 * Whose cache it is and which app wrote it: a cache written by another version (whose
 * trip shape may differ) or while another account (or nobody) was signed in is dropped
 * when the app starts, never shown.
 */
export function cacheOwner(): string {
  return `${__APP_VERSION__}|${getSession()?.user.id ?? 'signed-out'}`
}

/**
 * Kept: a trip query that has an answer (also one whose last refetch failed on the
 * network, the very case this is for). Not kept: anything else, and a trip the server
 * refused (403, 404: not yours, or the link was stopped).
 */
export function shouldPersistQuery(query: Query): boolean {
  if (!isPersistedTripKey(query.queryKey) || query.state.data === undefined) return false
  const { error } = query.state
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500)
}

export function createTripPersister(storage: Storage | undefined = globalThis.localStorage, throttleTime?: number): Persister {
  return createSyncStoragePersister({
    storage,
    key: TRIP_CACHE_KEY,
    throttleTime,
    // Stamped with the owner at the moment of writing (the provider's `buster` is read once,
    // at start), so a cache written after a sign-in belongs to that account.
    serialize: (client) => JSON.stringify({ ...client, buster: cacheOwner() }),
  })
}

export function tripPersistOptions(persister: Persister): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister,
    maxAge: TRIP_CACHE_MAX_AGE_MS,
    buster: cacheOwner(),
    dehydrateOptions: {
      shouldDehydrateQuery: shouldPersistQuery,
      // Never a request: the emergency POST is retried from its own Idempotency-Key store.
      shouldDehydrateMutation: () => false,
    },
  }
}
