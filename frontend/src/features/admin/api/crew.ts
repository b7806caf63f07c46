import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { invalidate, refreshAfterFleetChange } from '@/lib/queryKeys'
import { adminKeys } from './keys'
import type { Crew, NewCrew, NewHospitalStaff } from '@/lib/types'

/** The largest page the server gives. */
const CREW_PAGE_SIZE = 100

/** Every crew account (a page, then the other pages at once): the screens group them by ambulance. */
export async function allCrew(): Promise<Crew[]> {
  const first = await call('GET /admin/crew', { query: { page: 0, size: CREW_PAGE_SIZE } })
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, first.totalPages - 1) }, (_, i) =>
      call('GET /admin/crew', { query: { page: i + 1, size: CREW_PAGE_SIZE } }),
    ),
  )
  return [first, ...rest].flatMap((p) => p.content)
}

export function useAllCrew() {
  return useQuery({ queryKey: adminKeys.crew(), queryFn: allCrew })
}

/** Crew changes touch the fleet's views (each ambulance card lists its crew). */
function useCrewMutation<T, R>(fn: (input: T) => Promise<R>) {
  const client = useQueryClient()
  return useMutation({ mutationFn: fn, onSettled: () => refreshAfterFleetChange(client) })
}

export const useCreateCrew = () => useCrewMutation((body: NewCrew) => call('POST /admin/crew', { body }))

export const useMoveCrew = () =>
  useCrewMutation(({ crewId, ambulanceId }: { crewId: number; ambulanceId: number }) =>
    call('PATCH /admin/crew/{id}', { path: { id: crewId }, body: { ambulanceId } }),
  )

export const useRemoveCrew = () => useCrewMutation((crewId: number) => call('DELETE /admin/crew/{id}', { path: { id: crewId } }))

/** The crew of each ambulance, by its id. */
export function crewByAmbulance(crew: Crew[] | undefined): Map<number, Crew[]> {
  const map = new Map<number, Crew[]>()
  for (const c of crew ?? []) map.set(c.ambulanceId, [...(map.get(c.ambulanceId) ?? []), c])
  return map
}

/** A HOSPITAL account tied to one hospital (its incoming board); it changes no fleet view. */
export function useCreateHospitalStaff() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: NewHospitalStaff) => call('POST /admin/hospital-staff', { body }),
    onSettled: () => invalidate(client, ['admin']),
  })
}
