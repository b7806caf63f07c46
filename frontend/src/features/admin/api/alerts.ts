import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { refreshAfterBooking } from '@/lib/queryKeys'
import type { Alert } from '@/lib/types'
import { adminKeys } from './keys'

/** The dispatcher hears of a new alert within 5 s, as the live map follows the fleet. */
export const ALERTS_POLL_MS = 5000

/** Open: neither acknowledged nor closed (the server lists those first, oldest first). */
export const isOpen = (a: Alert) => !a.acknowledgedAt && !a.closedAt

export function useAlerts() {
  return useQuery({
    queryKey: adminKeys.alerts(),
    queryFn: () => call('GET /admin/alerts'),
    refetchInterval: ALERTS_POLL_MS,
    // Kept polling in a background tab: the title and the sound are how the dispatcher hears of one there.
    refetchIntervalInBackground: true,
  })
}

export function useAcknowledgeAlert() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => call('POST /admin/alerts/{id}/ack', { path: { id } }),
    // The answer is the alert as it now is: shown at once, before the next poll.
    onSuccess: (alert) => client.setQueryData<Alert[]>(adminKeys.alerts(), (list) => list?.map((a) => (a.id === alert.id ? alert : a))),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.alerts() }),
  })
}

/** At most 10 free ambulances within the SOS search radius (a setting) of the point, nearest first. */
export function useFreeNear(point: { latitude: number; longitude: number } | null) {
  return useQuery({
    queryKey: adminKeys.freeNear(point?.latitude ?? 0, point?.longitude ?? 0),
    queryFn: () => call('GET /admin/ambulances/free-near', { query: { lat: point!.latitude, lng: point!.longitude } }),
    enabled: point !== null,
    // Who is free changes by the second: always asked afresh when the dialog opens.
    staleTime: 0,
    gcTime: 0,
  })
}

/** The booking to another free ambulance; a 409 (taken meanwhile, the booking moved on) says why. */
export function useReassign() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ bookingId, ambulanceId }: { bookingId: number; ambulanceId: number }) =>
      call('PATCH /admin/bookings/{id}/ambulance', { path: { id: bookingId }, body: { ambulanceId } }),
    // Bookings, the fleet and the alerts (the clock closes the alert once the new crew is on it).
    onSettled: () => refreshAfterBooking(client),
  })
}
