import { useMutation, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { bookingKeys } from './keys'
import { trackPollInterval } from './track'

/** POST /api/booking/{id}/share: a new link for the family (the owner's, while the booking is open). */
export function useCreateShareLink(bookingId: number) {
  return useMutation({
    mutationFn: () => call('POST /booking/{id}/share', { path: { id: bookingId } }),
  })
}

/** DELETE /api/booking/{id}/share: every link to this booking stops working. */
export function useRevokeShareLinks(bookingId: number) {
  return useMutation({
    mutationFn: () => call('DELETE /booking/{id}/share', { path: { id: bookingId } }),
  })
}

/** GET /api/booking/shared/{token}: public, so sent without anyone's token; polled like the owner's view. */
export function useSharedTrip(token: string) {
  return useQuery({
    queryKey: bookingKeys.shared(token),
    queryFn: () => call('GET /booking/shared/{token}', { path: { token }, anonymous: true }),
    refetchInterval: (query) => trackPollInterval(query.state.data, query.state.error),
    refetchIntervalInBackground: false,
  })
}
