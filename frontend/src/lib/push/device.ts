// What this device remembers of its push subscription, apart from the browser's own
// record: the endpoint it sent to the server (so that sign-out can take it back without
// waiting for the service worker) and the places where its person said no.
// No imports: lib/api.ts's signOut reads it.

const ENDPOINT_KEY = 'push.endpoint'
const DECLINED_KEY = 'push.declined.'

/** Where a screen asks: each asks once, in its own words. */
export type PushPurpose = 'crew' | 'trip' | 'admin' | 'hospital'

export function rememberEndpoint(endpoint: string) {
  try {
    localStorage.setItem(ENDPOINT_KEY, endpoint)
  } catch {
    // Storage refused (private mode): sign-out then relies on the server ending the session's subscriptions.
  }
}

/** The endpoint sent to the server, forgotten as it is read (sign-out). */
export function takeEndpoint(): string | null {
  try {
    const endpoint = localStorage.getItem(ENDPOINT_KEY)
    localStorage.removeItem(ENDPOINT_KEY)
    return endpoint
  } catch {
    return null
  }
}

/** "Not now", or the browser's prompt closed without an answer: never asked again here. */
export function markDeclined(purpose: PushPurpose) {
  try {
    localStorage.setItem(DECLINED_KEY + purpose, '1')
  } catch {
    // Storage refused: the refusal holds for this page's life (the hook's state).
  }
}

export function isDeclined(purpose: PushPurpose): boolean {
  try {
    return localStorage.getItem(DECLINED_KEY + purpose) === '1'
  } catch {
    return false
  }
}

/** Ends the browser's subscription too: the next person to sign in on this phone gets none of these pushes. */
export function dropBrowserSubscription() {
  if (!('serviceWorker' in navigator)) return
  navigator.serviceWorker
    .getRegistration()
    .then((reg) => reg?.pushManager?.getSubscription())
    .then((sub) => sub?.unsubscribe())
    .catch(() => undefined)
}
