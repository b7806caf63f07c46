import { useQuery } from '@tanstack/react-query'
import { api, ApiError } from '../../../lib/api'
import type { AmbulanceCounts, Hospital, Page } from '../../../lib/types'
import { S } from '../../../strings'

export interface HomeStats {
  hospitals: number
  ambulances: AmbulanceCounts
}

export const zeroStats: HomeStats = {
  hospitals: 0,
  ambulances: { total: 0, available: 0, onDuty: 0, maintenance: 0 },
}

async function fetchHomeStats(): Promise<HomeStats> {
  const [counts, hospitals] = await Promise.all([
    api<AmbulanceCounts>('/ambulances/counts'),
    api<Page<Hospital>>('/hospitals/all', { query: { page: 0, size: 1 } }),
  ])
  return { ambulances: counts, hospitals: hospitals.totalElements }
}

export function useHomeStats(signedIn: boolean) {
  return useQuery({
    queryKey: ['home-stats', signedIn],
    queryFn: fetchHomeStats,
    refetchInterval: 30_000,
  })
}

/** Spec 8, home page: the message depends on the kind of failure. */
export function homeErrorMessage(error: unknown, signedIn: boolean): string {
  if (!signedIn) return S.home.publicFailed
  if (error instanceof ApiError) {
    if (error.kind === 'network' || error.kind === 'timeout') return S.home.network
    if (error.status === 403) return S.home.forbidden
    if (error.status === 401) return S.home.unauthorized
    if (error.status >= 500) return S.home.server
  }
  return S.home.other
}
