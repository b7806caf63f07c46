import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { refreshAfterBooking } from '@/lib/queryKeys'
import type { BookingStatus } from '@/lib/types'
import { adminKeys } from './keys'

export const BOOKINGS_PAGE_SIZE = 10

/** One page (zero-based) of every booking, newest first. */
export function useAdminBookings(page: number, size = BOOKINGS_PAGE_SIZE) {
  return useQuery({
    queryKey: adminKeys.bookings(page, size),
    queryFn: () => call('GET /admin/bookings/all/paged', { query: { page, size } }),
    placeholderData: keepPreviousData,
  })
}

/**
 * One booking whole, its patient's details with it: the server records each opening by
 * an admin, so it is asked for only when the details are shown (never cached for later).
 */
export function useAdminBooking(id: number) {
  return useQuery({
    queryKey: adminKeys.booking(id),
    queryFn: () => call('GET /booking/{id}', { path: { id } }),
    gcTime: 0,
    staleTime: 0,
  })
}

export function useAdminStats() {
  return useQuery({ queryKey: adminKeys.stats(), queryFn: () => call('GET /admin/stats') })
}

export function useSetBookingStatus() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ bookingId, status }: { bookingId: number; status: BookingStatus }) =>
      call('PATCH /admin/bookings/status', { query: { bookingId, status } }),
    onSettled: () => refreshAfterBooking(client),
  })
}
