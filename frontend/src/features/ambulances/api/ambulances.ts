import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Ambulance, AmbulanceCounts } from '@/lib/types'
import { ambulanceKeys } from './keys'

/** Every ambulance of a hospital, whatever its status. */
export function useHospitalAmbulances(hospitalId: number) {
  return useQuery({
    queryKey: ambulanceKeys.ofHospital(hospitalId),
    queryFn: () => api<Ambulance[]>(`/ambulances/hospital/${hospitalId}`),
  })
}

/** A hospital's fleet by status, counted by the server. */
export function useHospitalCounts(hospitalId: number) {
  return useQuery({
    queryKey: ambulanceKeys.counts(hospitalId),
    queryFn: () => api<AmbulanceCounts>('/ambulances/counts', { query: { hospitalId } }),
  })
}

/** The ambulances of a hospital that can be booked now; idle until a hospital is chosen. */
export function useAvailableAmbulances(hospitalId: number | null) {
  return useQuery({
    queryKey: ambulanceKeys.available(hospitalId),
    queryFn: () => api<Ambulance[]>('/ambulances/available', { query: { hospitalId } }),
    enabled: hospitalId !== null,
  })
}
