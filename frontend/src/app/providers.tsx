import { useEffect, type ReactNode } from 'react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client'
import { ApiError } from '@/lib/api'
import { PUSHED_MESSAGE } from '@/lib/push/messages'
import { getSession, subscribeSession } from '@/lib/session'
import { tripPersistOptions, type TripPersister } from './persist'

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // Client errors will not fix themselves; retry only network and server trouble.
        retry: (count, error) =>
          count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        // Backing off (1 s, 2 s, then the next poll), so a bad connection is not flooded.
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 10_000),
      },
      mutations: { retry: false },
    },
  })
}

const queryClient = createQueryClient()

/**
 * When the signed-in person changes (login, logout, expiry, another tab), nobody sees the
 * last one's data: not in memory, and not the trips kept on the device (`persister`).
 */
function useResetCacheOnIdentityChange(client: QueryClient, persister?: TripPersister) {
  useEffect(() => {
    let identity = getSession()?.user.id ?? null
    return subscribeSession(() => {
      const next = getSession()?.user.id ?? null
      if (next === identity) return
      identity = next
      // Memory first: a save still to come then writes no trip of the last person.
      void client.resetQueries()
      void persister?.removeClient()
    })
  }, [client, persister])
}

/**
 * A push arrived (the service worker says so): what the screens show may have changed
 * (a new job, the ambulance at the door), so they fetch now rather than at their next poll.
 */
function useRefreshOnPush(client: QueryClient) {
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
    const container = navigator.serviceWorker
    const onMessage = (e: MessageEvent) => {
      if ((e.data as { type?: unknown } | null)?.type === PUSHED_MESSAGE) void client.invalidateQueries()
    }
    container.addEventListener('message', onMessage)
    return () => container.removeEventListener('message', onMessage)
  }, [client])
}

/**
 * The query client for the app. With `persister` (main.tsx), the trip queries are kept
 * on the device across reloads (app/persist.ts), in step with the app's other tabs; the
 * screens wait for them to be read back.
 */
export function AppProviders({ children, client = queryClient, persister }: { children: ReactNode; client?: QueryClient; persister?: TripPersister }) {
  useResetCacheOnIdentityChange(client, persister)
  useRefreshOnPush(client)
  useEffect(() => persister?.followOtherTabs(), [persister])
  if (!persister) return <QueryClientProvider client={client}>{children}</QueryClientProvider>
  return (
    <PersistQueryClientProvider client={client} persistOptions={tripPersistOptions(persister)}>
      {children}
    </PersistQueryClientProvider>
  )
}
