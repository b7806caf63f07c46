import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ApiError, call, outcomeUnknown } from '@/lib/api'
import { refreshAfterBooking } from '@/lib/queryKeys'
import type { EmergencyConflict } from '@/lib/types'
import { forgetPendingEmergency, type PendingEmergency } from '../pending'

/** Retries of a request whose outcome is unknown, after 1, 2 and 4 s (then the person decides). */
export const EMERGENCY_RETRIES = 3
export const emergencyRetryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 8000)

/**
 * The server said something (a booking, or a 4xx that explains itself, a 429 included:
 * refused, nothing was made): the request is answered, and the next one is new (with
 * the pickup as it is then). A timeout, a lost connection or a 5xx is not: its key is kept.
 */
export const answered = (error: unknown) =>
  error instanceof ApiError && error.kind === 'http' && error.status >= 400 && error.status < 500 && error.status !== 408

/** A 409's body, when it is one. */
export function conflictOf(error: unknown): EmergencyConflict | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null
  return (error.body ?? {}) as EmergencyConflict
}

/**
 * POST /api/booking/emergency with the pending request's Idempotency-Key. Retried with
 * the same key while the outcome is unknown; paused while the phone is offline (TanStack
 * Query sends it when the connection is back).
 */
export function useSendEmergency() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (pending: PendingEmergency) =>
      call('POST /booking/emergency', {
        body: pending.body,
        headers: { 'Idempotency-Key': pending.key },
      }),
    retry: (count, error) => count < EMERGENCY_RETRIES && outcomeUnknown(error),
    retryDelay: emergencyRetryDelay,
    onSuccess: () => {
      forgetPendingEmergency()
      refreshAfterBooking(client)
    },
    onError: (error) => {
      if (answered(error)) forgetPendingEmergency()
    },
  })
}
