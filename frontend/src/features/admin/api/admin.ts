import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { refreshAfterFleetChange } from '@/lib/queryKeys'
import type { AddAmbulance, AddHospital, Ambulance, AmbulanceStatus, Hospital } from '@/lib/types'
import { adminKeys } from './keys'

export function useAdminAmbulances() {
  return useQuery({ queryKey: adminKeys.ambulances(), queryFn: () => api<Ambulance[]>('/admin/ambulances/all') })
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
  useFleetMutation((body: AddHospital) => api<Hospital>('/admin/hospitals/add', { method: 'POST', body }))

export const useRemoveHospital = () =>
  useFleetMutation((hospitalId: number) =>
    api<void>('/admin/hospitals/remove', { method: 'DELETE', query: { hospitalId } }),
  )

export const useAddAmbulance = () =>
  useFleetMutation((body: AddAmbulance) => api<Ambulance>('/admin/ambulances/add', { method: 'POST', body }))

export const useRemoveAmbulance = () =>
  useFleetMutation((ambulanceId: number) =>
    api<void>('/admin/ambulances/remove', { method: 'DELETE', query: { ambulanceId } }),
  )

export const useSetAmbulanceStatus = () =>
  useFleetMutation(({ ambulanceId, status }: { ambulanceId: number; status: AmbulanceStatus }) =>
    api<Ambulance>('/admin/ambulance/status', { method: 'PATCH', query: { ambulanceId, status } }),
  )

/** Spec 4: Toggle Status sends ON_DUTY for an AVAILABLE ambulance, else AVAILABLE. */
export function toggledStatus(current: AmbulanceStatus): AmbulanceStatus {
  return current === 'AVAILABLE' ? 'ON_DUTY' : 'AVAILABLE'
}
