import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { refreshAfterBooking } from '@/lib/queryKeys'
import type { Booking, Patient } from '@/lib/types'

/** PATCH /api/booking/{id}/patient: the details follow while the ambulance is on its way (all four; they replace the last). */
export function useUpdatePatient(bookingId: number) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (details: Patient) => api<Booking>(`/booking/${bookingId}/patient`, { method: 'PATCH', body: details }),
    onSuccess: () => refreshAfterBooking(client),
  })
}
