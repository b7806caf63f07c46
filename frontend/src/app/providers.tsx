import { useEffect, type ReactNode } from 'react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ApiError } from '@/lib/api'
import { getSession, subscribeSession } from '@/lib/session'

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

/** When the signed-in person changes (login, logout, expiry), nobody sees the last one's data. */
function useResetCacheOnIdentityChange(client: QueryClient) {
  useEffect(() => {
    let identity = getSession()?.user.id ?? null
    return subscribeSession(() => {
      const next = getSession()?.user.id ?? null
      if (next === identity) return
      identity = next
      void client.resetQueries()
    })
  }, [client])
}

export function AppProviders({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  useResetCacheOnIdentityChange(client)
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>
}
