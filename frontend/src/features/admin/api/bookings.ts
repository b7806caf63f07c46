import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Booking, BookingStatus, Page } from '@/lib/types'
import { adminKeys } from './keys'
import { refreshAfterBooking } from '@/lib/queryKeys'

export const BOOKINGS_PAGE_SIZE = 10

export interface AdminStats {
  users: number
  hospitals: number
  bookings: { total: number; pending: number; active: number; completed: number; cancelled: number }
  todayBookings: number
  ambulances: { total: number; available: number; onDuty: number; maintenance: number }
}

/** One page (zero-based) of every booking, newest first. */
export function useAdminBookings(page: number, size = BOOKINGS_PAGE_SIZE) {
  return useQuery({
    queryKey: adminKeys.bookings(page, size),
    queryFn: () => api<Page<Booking>>('/admin/bookings/all/paged', { query: { page, size } }),
    placeholderData: keepPreviousData,
  })
}

export function useAdminStats() {
  return useQuery({ queryKey: adminKeys.stats(), queryFn: () => api<AdminStats>('/admin/stats') })
}

export function useSetBookingStatus() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ bookingId, status }: { bookingId: number; status: BookingStatus }) =>
      api<Booking>('/admin/bookings/status', { method: 'PATCH', query: { bookingId, status } }),
    onSettled: () => refreshAfterBooking(client),
  })
}
