import { useAllHospitals, useNearestHospitals } from '@/features/hospitals'
import { useSession } from '@/lib/session'
import type { Hospital, NearestHospital } from '@/lib/types'

/** Nearest first: up to 50 by distance, then every other hospital by name. */
const NEAREST_LIMIT = 50

/** Nearest hospitals (with distance) first, then the rest of the list, without repeats. */
export function orderHospitals(nearest: NearestHospital[] | undefined, all: Hospital[] | undefined) {
  const near = nearest ?? []
  const seen = new Set(near.map((h) => h.id))
  const rest = (all ?? []).filter((h) => !seen.has(h.id)).sort((a, b) => a.name.localeCompare(b.name))
  return { near, rest }
}

/**
 * The hospitals the booking form offers: those nearest the user's stored location
 * first (when there is one), then all the others by name. Loading, or failed, only
 * while neither list can be shown.
 */
export function useHospitalChoices() {
  const user = useSession()?.user
  const lat = user?.latitude ?? null
  const lng = user?.longitude ?? null
  const located = lat !== null && lng !== null
  const nearest = useNearestHospitals(located ? lat : null, located ? lng : null, NEAREST_LIMIT)
  const all = useAllHospitals()
  return {
    located,
    ...orderHospitals(nearest.data, all.data),
    loading: all.isPending && (!located || nearest.isPending),
    failed: all.isError && (!located || nearest.isError),
    retry: () => {
      void all.refetch()
      void nearest.refetch()
    },
  }
}

export type HospitalChoices = ReturnType<typeof useHospitalChoices>
