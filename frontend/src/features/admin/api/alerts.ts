import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { refreshAfterBooking } from '@/lib/queryKeys'
import type { Alert } from '@/lib/types'
import { adminKeys } from './keys'

/** The dispatcher hears of a new alert within 5 s, as the live map follows the fleet. */
export const ALERTS_POLL_MS = 5000

/** Open: neither acknowledged nor closed (the server lists those first, most urgent first). */
export const isOpen = (a: Alert) => !a.acknowledgedAt && !a.closedAt

/** Pages read at most per poll: 1 000 alerts, far more than a control room works through. */
export const ALERT_PAGES = 10

/**
 * Every alert, page after page (`{items, cursor?}`; decision 0019). A server of the
 * release before answers the bare list: still read, for one release.
 */
export async function fetchAlerts(): Promise<Alert[]> {
  const all: Alert[] = []
  let cursor: string | undefined
  for (let page = 0; page < ALERT_PAGES; page++) {
    const answer: unknown = await call('GET /admin/alerts', cursor ? { query: { cursor } } : {})
    if (Array.isArray(answer)) return answer as Alert[]
    const { items, cursor: next } = answer as { items: Alert[]; cursor?: string }
    all.push(...items)
    if (!next) break
    cursor = next
  }
  return all
}

export function useAlerts() {
  return useQuery({
    queryKey: adminKeys.alerts(),
    queryFn: fetchAlerts,
    refetchInterval: ALERTS_POLL_MS,
    // Kept polling in a background tab: the title and the sound are how the dispatcher hears of one there.
    refetchIntervalInBackground: true,
  })
}

export function useAcknowledgeAlert() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => call('POST /admin/alerts/{id}/ack', { path: { id } }),
    // The answer is the alert as it now is: shown at once, before the next poll.
    onSuccess: (alert) => client.setQueryData<Alert[]>(adminKeys.alerts(), (list) => list?.map((a) => (a.id === alert.id ? alert : a))),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.alerts() }),
  })
}

/** Acknowledgements sent at once by "Acknowledge all": a burst the API takes without a queue. */
export const ACK_AT_ONCE = 6

/**
 * Acknowledges many alerts (a row's, or every one of a kind), each its own audited
 * `POST /admin/alerts/{id}/ack` (docs/decisions/0024-a-console-row-acts-alone.md),
 * ACK_AT_ONCE at a time; each answer shown at once. Resolves with how many failed.
 */
export function useAcknowledgeMany() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: async ({ ids, onProgress }: { ids: number[]; onProgress?: (done: number) => void }) => {
      let next = 0
      let done = 0
      let failed = 0
      const answers = new Map<number, Alert>()
      // A row's few: each shown as it comes. Many (a kind's): shown together at the end, not the queue
      // re-drawn a hundred times meanwhile (the dialog counts them).
      const show = (list: Alert[]) =>
        client.setQueryData<Alert[]>(adminKeys.alerts(), (all) => all?.map((a) => list.find((b) => b.id === a.id) ?? a))
      const worker = async () => {
        while (next < ids.length) {
          const id = ids[next++]!
          try {
            const alert = await call('POST /admin/alerts/{id}/ack', { path: { id } })
            if (ids.length <= ACK_AT_ONCE) show([alert])
            else answers.set(alert.id, alert)
          } catch {
            failed++
          }
          onProgress?.(++done)
        }
      }
      await Promise.all(Array.from({ length: Math.min(ACK_AT_ONCE, ids.length) }, worker))
      if (answers.size > 0) show([...answers.values()])
      return { acknowledged: ids.length - failed, failed }
    },
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.alerts() }),
  })
}

/** At most 10 free ambulances within the SOS search radius (a setting) of the point, nearest first. */
export function useFreeNear(point: { latitude: number; longitude: number } | null) {
  return useQuery({
    queryKey: adminKeys.freeNear(point?.latitude ?? 0, point?.longitude ?? 0),
    queryFn: () => call('GET /admin/ambulances/free-near', { query: { lat: point!.latitude, lng: point!.longitude } }),
    enabled: point !== null,
    // Who is free changes by the second: always asked afresh when the dialog opens.
    staleTime: 0,
    gcTime: 0,
  })
}

/** The booking to another free ambulance; a 409 (taken meanwhile, the booking moved on) says why. */
export function useReassign() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ bookingId, ambulanceId }: { bookingId: number; ambulanceId: number }) =>
      call('PATCH /admin/bookings/{id}/ambulance', { path: { id: bookingId }, body: { ambulanceId } }),
    // Bookings, the fleet and the alerts (the clock closes the alert once the new crew is on it).
    onSettled: () => refreshAfterBooking(client),
  })
}
