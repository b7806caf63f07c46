import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef } from 'react'
import { call, outcomeUnknown } from '@/lib/api'
import { newIdempotencyKey } from '@/lib/idempotency'
import { refreshAfterBooking } from '@/lib/queryKeys'
import type { Booking, BookingRequest } from '@/lib/types'
import { isOpen } from '@/lib/trip/status'
import { bookingKeys } from './keys'

/** While any booking is open, its status is refreshed every 10 s. */
export const HISTORY_POLL_MS = 10_000

export const historyQuery = (userId: number) => ({
  queryKey: bookingKeys.history(userId),
  queryFn: () => call('GET /booking/history', { query: { userId } }),
})

/** Poll every 10 s while a booking is PENDING or ACTIVE; stop once all are final. */
export const pollWhileOpen = (bookings: Booking[] | undefined): number | false =>
  bookings?.some((b) => isOpen(b.bookingStatus)) ? HISTORY_POLL_MS : false

export function useHistory(userId: number) {
  return useQuery({ ...historyQuery(userId), refetchInterval: (query) => pollWhileOpen(query.state.data) })
}

/**
 * The same submission (same body) keeps its Idempotency-Key, so a retry after a lost
 * answer returns the first booking; a changed body is a new submission with a new key.
 */
export function keyFor(previous: { key: string; body: string } | null, body: string) {
  return previous && previous.body === body ? previous : { key: newIdempotencyKey(), body }
}

export function useBook(userId: number | undefined) {
  const client = useQueryClient()
  const submission = useRef<{ key: string; body: string } | null>(null)
  const mutation = useMutation({
    mutationFn: ({ body, key }: { body: BookingRequest; key: string }) =>
      call('POST /booking/book', {
        query: { userId },
        body,
        headers: { 'Idempotency-Key': key },
      }),
    retry: (count, error) => count < 1 && outcomeUnknown(error),
    retryDelay: 800,
    onSuccess: () => {
      submission.current = null
      refreshAfterBooking(client)
    },
  })
  const book = (body: BookingRequest, options?: Parameters<typeof mutation.mutate>[1]) => {
    submission.current = keyFor(submission.current, JSON.stringify(body))
    mutation.mutate({ body, key: submission.current.key }, options)
  }
  return { ...mutation, book }
}

export function useCancelBooking() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (bookingId: number) =>
      call('PATCH /booking/cancel', { query: { bookingId } }),
    onSettled: () => refreshAfterBooking(client),
  })
}
