import { useQuery, type UseQueryResult } from '@tanstack/react-query'
import { ApiError, call } from '@/lib/api'
import { useOnline } from '@/lib/online'
import { freshness } from '@/lib/position'
import { isOpen } from '@/lib/trip/status'
import { bookingKeys } from './keys'
import type { Tracking } from '@/lib/types'

/** How often an open booking's trip is asked for (the crew report at most every 5 s). */
export const TRACK_POLL_MS = 5000

export const trackingQuery = (bookingId: number) => ({
  queryKey: bookingKeys.track(bookingId),
  queryFn: () => call('GET /booking/{id}/track', { path: { id: bookingId } }),
})

/** Poll while the booking is open; a final booking, or a refusal (4xx), stops it. */
export function trackPollInterval(data: { bookingStatus: string } | undefined, error: unknown): number | false {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false
  if (data && !isOpen(data.bookingStatus)) return false
  return TRACK_POLL_MS
}

/**
 * How far to trust the ambulance's position in a trip query's last answer at `now`
 * (lib/position.ts): never live while offline or once the polling has stopped bringing news.
 */
export function useTripFreshness(trip: UseQueryResult<{ ambulance: Pick<Tracking['ambulance'], 'position'> }>, now: number) {
  const online = useOnline()
  return freshness(trip.data?.ambulance.position, now, { updatedAt: trip.dataUpdatedAt, pollMs: TRACK_POLL_MS, online })
}

export function useTracking(bookingId: number) {
  return useQuery({
    ...trackingQuery(bookingId),
    // TanStack Query also pauses the interval while the tab is hidden.
    refetchInterval: (query) => trackPollInterval(query.state.data, query.state.error),
    refetchIntervalInBackground: false,
  })
}
