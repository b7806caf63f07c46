import { queryRoots } from '@/lib/queryKeys'

export const hospitalKeys = {
  all: queryRoots.hospitals,
  /** Up to 1000 hospitals, page 0. */
  list: () => [...queryRoots.hospitals, 'all'] as const,
  nearest: (lat: number | null, lng: number | null, limit: number | null) =>
    [...queryRoots.hospitals, 'nearest', lat, lng, limit] as const,
  detail: (id: number) => [...queryRoots.hospitals, 'detail', id] as const,
}
