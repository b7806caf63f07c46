// The trip pages' last answers kept on the device (docs/decisions/0010-trip-on-the-device.md):
// TanStack Query's own persistence, to localStorage, of the trip queries only, so a trip
// page reloaded with no connection still shows the ambulance coming, its stage and its
// last ETA with their true age.
import type { Query } from '@tanstack/react-query'
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister'
import type { PersistedClient, Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client'
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

/** The query hashes of a kept cache (none for `null`). */
const hashesOf = (client: PersistedClient | null) => new Set(client?.clientState.queries.map((q) => q.queryHash))

/** The kept cache `stored`, when it is this owner's and well formed; otherwise `null`. */
function ownersCache(stored: string | null): PersistedClient | null {
  if (stored === null) return null
  try {
    const kept = JSON.parse(stored) as PersistedClient
    return kept.buster === cacheOwner() && Array.isArray(kept.clientState?.queries) ? kept : null
  } catch {
    return null
  }
}

/**
 * Two tabs (a requester's own trip and a shared link, say) write the one kept cache: each
 * write adds the trips another tab kept (same owner, under 24 h old) to this tab's, so a
 * reload offline finds its trip whichever tab wrote last. A trip this tab kept once and
 * no longer keeps (refused, removed) is this tab's to drop; another tab's stays.
 */
export function mergeOtherTabs(client: PersistedClient, stored: string | null, mine: ReadonlySet<string>, now = Date.now()): PersistedClient {
  const before = ownersCache(stored)
  if (before === null) return client
  const here = hashesOf(client)
  const others = before.clientState.queries.filter(
    (q) => !here.has(q.queryHash) && !mine.has(q.queryHash) && now - q.state.dataUpdatedAt < TRIP_CACHE_MAX_AGE_MS,
  )
  if (others.length === 0) return client
  return { ...client, clientState: { ...client.clientState, queries: [...client.clientState.queries, ...others] } }
}

/** Whether the kept cache `stored`, this owner's, lacks one of the trips `mine`. */
function lacksAny(stored: string, mine: ReadonlySet<string>): boolean {
  const kept = ownersCache(stored)
  if (kept === null) return false
  const there = hashesOf(kept)
  return [...mine].some((hash) => !there.has(hash))
}

/** The device's persister, which also follows the other tabs' writes (`followOtherTabs`). */
export interface TripPersister extends Persister {
  /**
   * Puts this tab's trips back when another tab's write dropped them: two tabs that
   * write at the same instant each merge what was there before the other's write, and
   * the later one loses the earlier one's trips. The browser tells every other tab of a
   * write (the `storage` event); the tab whose trips are missing writes them again,
   * merged. Returns the function that stops following.
   */
  followOtherTabs(): () => void
}

export function createTripPersister(storage: Storage | undefined = globalThis.localStorage, throttleTime?: number): TripPersister {
  // This tab's cache as it last wrote it; its trips are the ones this tab may drop.
  let own: PersistedClient | null = null
  // Stamped with the owner at the moment of writing (the provider's `buster` is read once,
  // at start), so a cache written after a sign-in belongs to that account.
  const serialize = (client: PersistedClient) => {
    const merged = mergeOtherTabs(client, storage?.getItem(TRIP_CACHE_KEY) ?? null, hashesOf(own))
    own = client
    return JSON.stringify({ ...merged, buster: cacheOwner() })
  }
  const persister = createSyncStoragePersister({ storage, key: TRIP_CACHE_KEY, throttleTime, serialize })
  return {
    ...persister,
    // Removed on purpose (the person changed): nothing of it is put back.
    removeClient: () => {
      own = null
      return persister.removeClient()
    },
    followOtherTabs: () => {
      const onStorage = (event: StorageEvent) => {
        if (event.storageArea !== storage || event.key !== TRIP_CACHE_KEY || event.newValue === null || own === null) return
        if (!lacksAny(event.newValue, hashesOf(own))) return
        try {
          storage?.setItem(TRIP_CACHE_KEY, serialize(own))
        } catch {
          // Storage full or blocked: this tab's next save tries again.
        }
      }
      window.addEventListener('storage', onStorage)
      return () => window.removeEventListener('storage', onStorage)
    },
  }
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
