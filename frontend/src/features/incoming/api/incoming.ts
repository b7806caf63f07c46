import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { refreshAfterBooking, refreshAfterDiversion } from '@/lib/queryKeys'
import { incomingKeys } from './keys'

/** The board is asked for every 5 s while the tab is visible: an ambulance setting off shows within seconds. */
export const BOARD_POLL_MS = 5000

export const incomingQuery = () => ({
  queryKey: incomingKeys.board(),
  queryFn: () => call('GET /hospital/incoming'),
})

export function useIncoming() {
  // TanStack Query pauses the interval while the tab is hidden; the push wakes a locked phone.
  return useQuery({ ...incomingQuery(), refetchInterval: BOARD_POLL_MS, refetchIntervalInBackground: false })
}

/** The patient was handed over to this hospital's staff: the trip moves to HANDED_OVER. */
export function useHandover() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (bookingId: number) => call('POST /hospital/bookings/{id}/handover', { path: { id: bookingId } }),
    // A 409 means the crew recorded it (or the trip moved on): either way, show the board as the server has it.
    onSettled: () => refreshAfterBooking(client),
  })
}

/** On diversion until `until` (an RFC 3339 time, in the future and within 24 h). */
export function useSetDiversion() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (until: string) => call('PUT /hospital/diversion', { body: { until } }),
    onSettled: () => refreshAfterDiversion(client),
  })
}

/** Open again. */
export function useEndDiversion() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => call('DELETE /hospital/diversion'),
    onSettled: () => refreshAfterDiversion(client),
  })
}
