import { useQuery } from '@tanstack/react-query'
import { ApiError, call } from '@/lib/api'
import type { Ambulance, AmbulanceCounts, Hospital } from '@/lib/types'
import { S } from '@/strings'
import { homeKeys } from './keys'

export interface HomeStats {
  /** Hospitals in the system (the page's maintained total). */
  hospitals: number
  /** The whole fleet by status, counted by the server. */
  ambulances: AmbulanceCounts
  /** Ambulances free right now (may be empty when that sub-fetch fails). */
  available: Ambulance[]
}

export const zeroStats: HomeStats = {
  hospitals: 0,
  ambulances: { total: 0, available: 0, onDuty: 0, maintenance: 0 },
  available: [],
}


/** Signed-out visitors only look at the first 3 hospitals in the fallback (docs/requirements.md, "Hospitals and the home page"). */
const PUBLIC_FALLBACK_HOSPITALS = 3

/**
 * The available ambulances: `/ambulances/available/all`, and when that fails, each
 * hospital's available ambulances instead. Failures here are swallowed (docs/requirements.md, "Hospitals and the home page").
 */
async function fetchAvailable(hospitals: Hospital[], signedIn: boolean): Promise<Ambulance[]> {
  try {
    return await call('GET /ambulances/available/all')
  } catch {
    const some = signedIn ? hospitals : hospitals.slice(0, PUBLIC_FALLBACK_HOSPITALS)
    const lists = await Promise.all(
      some.map((h) =>
        call('GET /ambulances/available', { query: { hospitalId: h.id } }).catch(() => [] as Ambulance[]),
      ),
    )
    return lists.flat()
  }
}

export async function fetchHomeStats(signedIn: boolean): Promise<HomeStats> {
  // The hospital list and the fleet counts are the page's figures: if either fails,
  // the whole load fails and the page says why (homeErrorMessage).
  const [hospitals, counts] = await Promise.all([
    call('GET /hospitals/all', { query: { page: 0, size: 10 } }),
    call('GET /ambulances/counts'),
  ])
  // An ambulance taken between the two reads of the fallback is left out.
  const available = (await fetchAvailable(hospitals.content ?? [], signedIn)).filter((a) => a.status === 'AVAILABLE')
  return { hospitals: hospitals.totalElements ?? hospitals.content?.length ?? 0, ambulances: counts, available }
}

export function useHomeStats(signedIn: boolean) {
  return useQuery({
    queryKey: homeKeys.stats(signedIn),
    queryFn: () => fetchHomeStats(signedIn),
    refetchInterval: 30_000,
  })
}

/** The home page's message depends on the kind of failure (docs/requirements.md, "Hospitals and the home page"). */
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
