import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import type { CrewStatus, DestinationRequest, PositionReport, StageRequest } from '@/lib/types'
import { refreshAfterBooking, refreshAfterFleetChange } from '@/lib/queryKeys'
import { crewKeys } from './keys'

/** A new job shows within 5 s: the crew's view is asked for every 3 s while the tab is visible. */
export const CREW_POLL_MS = 3000

export const crewMeQuery = () => ({
  queryKey: crewKeys.me(),
  queryFn: () => call('GET /crew/me'),
})

export function useCrewMe() {
  // TanStack Query pauses the interval while the tab is hidden (refetchIntervalInBackground: false).
  return useQuery({ ...crewMeQuery(), refetchInterval: CREW_POLL_MS, refetchIntervalInBackground: false })
}

export function useAdvanceStage() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: StageRequest) => call('PATCH /crew/job/stage', { body }),
    // A 409 means the job moved on meanwhile: either way, show it as the server has it.
    onSettled: () => refreshAfterBooking(client),
  })
}

export function useSetCrewStatus() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (status: CrewStatus) => call('PATCH /crew/status', { body: { status } }),
    onSettled: () => refreshAfterFleetChange(client),
  })
}

export const reportLocation = (body: PositionReport) => call('PUT /crew/location', { body })

/** Drive the patient to another hospital (until AT_HOSPITAL): both hospitals' boards follow. */
export function useChangeDestination() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: DestinationRequest) => call('PATCH /crew/job/destination', { body }),
    onSettled: () => refreshAfterBooking(client),
  })
}
