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
 * One booking whole, patient details included: the lists show an admin the patient's name
 * only, and this read is on the audit trail (docs/decisions/0023), so it is made when asked
 * for (the dialog opens), never kept.
 */
export function useBookingDetails(id: number) {
  return useQuery({
    queryKey: adminKeys.booking(id),
    queryFn: () => call('GET /booking/{id}', { path: { id } }),
    staleTime: 0,
    gcTime: 0,
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
