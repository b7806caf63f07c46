import { newIdempotencyKey } from '@/lib/idempotency'
import type { EmergencyRequest } from '@/lib/types'

/**
 * The emergency request not answered yet, kept in sessionStorage (this tab, across a
 * reload) with its Idempotency-Key: every retry, by the app or by the person, sends it
 * again as it was, so the server answers the first booking instead of making a second.
 * It goes once an answer comes (a booking, or a refusal that says why).
 */
export interface PendingEmergency {
  key: string
  body: EmergencyRequest
  /** When it was first sent (ms): an hour later it is dropped (the server keeps keys 24 h, one open emergency per user still holds). */
  since: number
}

const STORE_KEY = 'emergency.pending'
const MAX_AGE_MS = 60 * 60 * 1000

export function pendingEmergency(now = Date.now()): PendingEmergency | null {
  try {
    const raw = sessionStorage.getItem(STORE_KEY)
    if (!raw) return null
    const pending = JSON.parse(raw) as PendingEmergency
    if (typeof pending?.key !== 'string' || !pending.body?.pickup || !(now - pending.since < MAX_AGE_MS)) {
      sessionStorage.removeItem(STORE_KEY)
      return null
    }
    return pending
  } catch {
    return null
  }
}

/** The request to send: the one still waiting for an answer if there is one, else `body` under a new key. */
export function pendingOr(body: EmergencyRequest, now = Date.now()): PendingEmergency {
  const waiting = pendingEmergency(now)
  if (waiting) return waiting
  const fresh = { key: newIdempotencyKey(), body, since: now }
  try {
    sessionStorage.setItem(STORE_KEY, JSON.stringify(fresh))
  } catch {
    // Storage full or refused: the key still holds for this page's retries.
  }
  return fresh
}

/** Answered: the next request is a new one. */
export function forgetPendingEmergency() {
  try {
    sessionStorage.removeItem(STORE_KEY)
  } catch {
    // Nothing stored.
  }
}
