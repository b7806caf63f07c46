import { useMutation, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { refreshAfterBooking } from '@/lib/queryKeys'
import type { Patient } from '@/lib/types'

/** PATCH /api/booking/{id}/patient: the details follow while the ambulance is on its way (all four; they replace the last). */
export function useUpdatePatient(bookingId: number) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (details: Patient) => call('PATCH /booking/{id}/patient', { path: { id: bookingId }, body: details }),
    onSuccess: () => refreshAfterBooking(client),
  })
}
