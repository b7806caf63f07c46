import { useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { ambulanceKeys } from './keys'

/** Every ambulance of a hospital, whatever its status. */
export function useHospitalAmbulances(hospitalId: number) {
  return useQuery({
    queryKey: ambulanceKeys.ofHospital(hospitalId),
    queryFn: () => call('GET /ambulances/hospital/{id}', { path: { id: hospitalId } }),
  })
}

/** A hospital's fleet by status, counted by the server. */
export function useHospitalCounts(hospitalId: number) {
  return useQuery({
    queryKey: ambulanceKeys.counts(hospitalId),
    queryFn: () => call('GET /ambulances/counts', { query: { hospitalId } }),
  })
}

/** The ambulances of a hospital that can be booked now; idle until a hospital is chosen. */
export function useAvailableAmbulances(hospitalId: number | null) {
  return useQuery({
    queryKey: ambulanceKeys.available(hospitalId),
    // Asked only once a hospital is chosen (`enabled`).
    queryFn: () => call('GET /ambulances/available', { query: { hospitalId: hospitalId! } }),
    enabled: hospitalId !== null,
  })
}
