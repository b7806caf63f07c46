import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Ambulance, AmbulanceCounts, Hospital, Page } from '@/lib/types'

/** The `limit` (server default 10, at most 50) nearest hospitals, nearest first. */
export function useNearestHospitals(lat: number | null, lng: number | null, limit?: number) {
  return useQuery({
    queryKey: ['hospitals', 'nearest', lat, lng, limit ?? null],
    queryFn: () => api<Hospital[]>('/hospitals/nearest', { query: { lat, lng, limit } }),
    enabled: lat !== null && lng !== null,
  })
}

export function useHospital(id: number) {
  return useQuery({ queryKey: ['hospital', id], queryFn: () => api<Hospital>(`/hospitals/${id}`) })
}

export function useHospitalAmbulances(id: number) {
  return useQuery({
    queryKey: ['ambulances', 'hospital', id],
    queryFn: () => api<Ambulance[]>(`/ambulances/hospital/${id}`),
  })
}

export function useHospitalCounts(id: number) {
  return useQuery({
    queryKey: ['ambulances', 'counts', id],
    queryFn: () => api<AmbulanceCounts>('/ambulances/counts', { query: { hospitalId: id } }),
  })
}

/** Up to 1000 hospitals (the admin screens and the booking form list them all). */
export function useAllHospitals() {
  return useQuery({
    queryKey: ['hospitals', 'all'],
    queryFn: () => api<Page<Hospital>>('/hospitals/all', { query: { page: 0, size: 1000 } }),
    select: (page) => page.content,
  })
}
