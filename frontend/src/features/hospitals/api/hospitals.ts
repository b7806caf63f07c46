import { useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { hospitalKeys } from './keys'

/** The `limit` (server default 10, at most 50) nearest hospitals, nearest first. */
export function useNearestHospitals(lat: number | null, lng: number | null, limit?: number) {
  return useQuery({
    queryKey: hospitalKeys.nearest(lat, lng, limit ?? null),
    // Asked only with both coordinates (`enabled`).
    queryFn: () => call('GET /hospitals/nearest', { query: { lat: lat!, lng: lng!, limit } }),
    enabled: lat !== null && lng !== null,
  })
}

export function useHospital(id: number) {
  return useQuery({ queryKey: hospitalKeys.detail(id), queryFn: () => call('GET /hospitals/{id}', { path: { id } }) })
}

/** Up to 1000 hospitals (the admin screens and the booking form list them all). */
export function useAllHospitals() {
  return useQuery({
    queryKey: hospitalKeys.list(),
    queryFn: () => call('GET /hospitals/all', { query: { page: 0, size: 1000 } }),
    select: (page) => page.content,
  })
}
