import { queryRoots } from '@/lib/queryKeys'

export const ambulanceKeys = {
  all: queryRoots.ambulances,
  ofHospital: (hospitalId: number) => [...queryRoots.ambulances, 'hospital', hospitalId] as const,
  counts: (hospitalId: number) => [...queryRoots.ambulances, 'counts', hospitalId] as const,
  available: (hospitalId: number | null) => [...queryRoots.ambulances, 'available', hospitalId] as const,
}
