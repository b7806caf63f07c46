import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Hospital, HospitalPage, NearestHospital } from '@/lib/types'
import { hospitalKeys } from './keys'

/** The `limit` (server default 10, at most 50) nearest hospitals, nearest first. */
export function useNearestHospitals(lat: number | null, lng: number | null, limit?: number) {
  return useQuery({
    queryKey: hospitalKeys.nearest(lat, lng, limit ?? null),
    queryFn: () => api<NearestHospital[]>('/hospitals/nearest', { query: { lat, lng, limit } }),
    enabled: lat !== null && lng !== null,
  })
}

export function useHospital(id: number) {
  return useQuery({ queryKey: hospitalKeys.detail(id), queryFn: () => api<Hospital>(`/hospitals/${id}`) })
}

/** Up to 1000 hospitals (the admin screens and the booking form list them all). */
export function useAllHospitals() {
  return useQuery({
    queryKey: hospitalKeys.list(),
    queryFn: () => api<HospitalPage>('/hospitals/all', { query: { page: 0, size: 1000 } }),
    select: (page) => page.content,
  })
}
