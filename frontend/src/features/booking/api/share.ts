import { useMutation, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { bookingKeys } from './keys'
import { trackPollInterval } from './track'
import type { SharedTrip, ShareLink } from '@/lib/types'

/** POST /api/booking/{id}/share: a new link for the family (the owner's, while the booking is open). */
export function useCreateShareLink(bookingId: number) {
  return useMutation({
    mutationFn: () => api<ShareLink>(`/booking/${bookingId}/share`, { method: 'POST' }),
  })
}

/** DELETE /api/booking/{id}/share: every link to this booking stops working. */
export function useRevokeShareLinks(bookingId: number) {
  return useMutation({
    mutationFn: () => api<void>(`/booking/${bookingId}/share`, { method: 'DELETE' }),
  })
}

/** GET /api/booking/shared/{token}: public, so sent without anyone's token; polled like the owner's view. */
export function useSharedTrip(token: string) {
  return useQuery({
    queryKey: bookingKeys.shared(token),
    queryFn: () => api<SharedTrip>(`/booking/shared/${encodeURIComponent(token)}`, { anonymous: true }),
    refetchInterval: (query) => trackPollInterval(query.state.data, query.state.error),
    refetchIntervalInBackground: false,
  })
}
