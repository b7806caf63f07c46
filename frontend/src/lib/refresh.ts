// Silent refresh of the short-lived access token (5 minutes) with the rotating refresh
// token. Refresh tokens are single-use: the server answers a new one, and a used one
// sent again revokes the whole session. So exactly one refresh runs at a time: requests
// of this tab share it, and other tabs (same localStorage) wait for it through a Web
// Lock and then find the rotated token already stored.
import type { AuthResponse } from './types'
import { clearSession, readStoredSession, reloadSession, saveRefreshed, type Session } from './session'

/** Refresh this long before the access token expires, so no request goes out with a dying one. */
export const REFRESH_EARLY_MS = 30_000

/** The access token expires within REFRESH_EARLY_MS (and a refresh token can renew it). */
export function needsRefresh(session: Session | null, now = Date.now()): boolean {
  if (!session?.refreshToken || !session.expiresAt) return false
  const expires = Date.parse(session.expiresAt)
  return Number.isFinite(expires) && expires - now <= REFRESH_EARLY_MS
}

/** What a refresh ended with. `transient`: no answer we can act on (network, 5xx, 429): keep the session. */
export type RefreshOutcome = { kind: 'fresh'; session: Session } | { kind: 'refused' } | { kind: 'transient' }

let inFlight: Promise<RefreshOutcome> | null = null

/**
 * Renews `stale` (the session a request used). Concurrent callers share one refresh. A
 * refused refresh token (any 4xx but 429) clears the session with `expiredNotice`.
 */
export function refreshSession(stale: Session, expiredNotice: string): Promise<RefreshOutcome> {
  inFlight ??= withLock(() => run(stale, expiredNotice)).finally(() => {
    inFlight = null
  })
  return inFlight
}

async function run(stale: Session, expiredNotice: string): Promise<RefreshOutcome> {
  const stored = readStoredSession()
  if (!stored) return { kind: 'refused' }
  // Another tab (or an earlier refresh here) rotated it already: use what it stored.
  if (stored.refreshToken !== stale.refreshToken) {
    reloadSession()
    return { kind: 'fresh', session: stored }
  }
  if (!stored.refreshToken) return { kind: 'refused' }
  let response: Response
  try {
    response = await fetch('/api/auth/refresh', {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken: stored.refreshToken }),
      signal: AbortSignal.timeout(15000),
    })
  } catch {
    return { kind: 'transient' }
  }
  if (response.ok) {
    const auth = (await response.json().catch(() => null)) as AuthResponse | null
    if (!auth?.token) return { kind: 'transient' }
    saveRefreshed(auth)
    const session = readStoredSession()
    return session ? { kind: 'fresh', session } : { kind: 'refused' }
  }
  if (response.status >= 400 && response.status < 500 && response.status !== 429) {
    clearSession(expiredNotice)
    return { kind: 'refused' }
  }
  return { kind: 'transient' }
}

/** Runs `task` holding the app's refresh lock across tabs, where the browser has Web Locks. */
function withLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined
  return locks ? locks.request('ambucare-session-refresh', task) : task()
}
