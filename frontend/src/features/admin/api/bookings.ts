import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { refreshAfterBooking } from '@/lib/queryKeys'
import type { Booking, BookingPage, BookingStatus, Stats } from '@/lib/types'
import { adminKeys } from './keys'

export const BOOKINGS_PAGE_SIZE = 10

/** One page (zero-based) of every booking, newest first. */
export function useAdminBookings(page: number, size = BOOKINGS_PAGE_SIZE) {
  return useQuery({
    queryKey: adminKeys.bookings(page, size),
    queryFn: () => api<BookingPage>('/admin/bookings/all/paged', { query: { page, size } }),
    placeholderData: keepPreviousData,
  })
}

export function useAdminStats() {
  return useQuery({ queryKey: adminKeys.stats(), queryFn: () => api<Stats>('/admin/stats') })
}

export function useSetBookingStatus() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ bookingId, status }: { bookingId: number; status: BookingStatus }) =>
      api<Booking>('/admin/bookings/status', { method: 'PATCH', query: { bookingId, status } }),
    onSettled: () => refreshAfterBooking(client),
  })
}
