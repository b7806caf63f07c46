import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { refreshAfterFleetChange } from '@/lib/queryKeys'
import type { AddAmbulance, AddHospital, AmbulanceStatus } from '@/lib/types'
import { adminKeys } from './keys'

export function useAdminAmbulances() {
  return useQuery({ queryKey: adminKeys.ambulances(), queryFn: () => call('GET /admin/ambulances/all') })
}

/** Every change to the fleet or the hospitals refreshes all views of them. */
function useFleetMutation<T, R>(fn: (input: T) => Promise<R>) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSettled: () => refreshAfterFleetChange(client),
  })
}

export const useAddHospital = () =>
  useFleetMutation((body: AddHospital) => call('POST /admin/hospitals/add', { body }))

export const useRemoveHospital = () =>
  useFleetMutation((hospitalId: number) =>
    call('DELETE /admin/hospitals/remove', { query: { hospitalId } }),
  )

export const useAddAmbulance = () =>
  useFleetMutation((body: AddAmbulance) => call('POST /admin/ambulances/add', { body }))

export const useRemoveAmbulance = () =>
  useFleetMutation((ambulanceId: number) =>
    call('DELETE /admin/ambulances/remove', { query: { ambulanceId } }),
  )

export const useSetAmbulanceStatus = () =>
  useFleetMutation(({ ambulanceId, status }: { ambulanceId: number; status: AmbulanceStatus }) =>
    call('PATCH /admin/ambulance/status', { query: { ambulanceId, status } }),
  )

/** Toggle Status sends ON_DUTY for an AVAILABLE ambulance, else AVAILABLE (docs/requirements.md, "Admin"). */
export function toggledStatus(current: AmbulanceStatus): AmbulanceStatus {
  return current === 'AVAILABLE' ? 'ON_DUTY' : 'AVAILABLE'
}
