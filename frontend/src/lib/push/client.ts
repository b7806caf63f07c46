// The push subscription's client: the server's key, the browser's subscription, and the
// two routes that keep the server's copy (decision 0014, "Alerts that reach a
// locked phone"). The screens use it through usePush.ts.
import { call } from '@/lib/api'
import type { PushSubscriptionBody } from '@/lib/types'
import { rememberEndpoint } from './device'
import type { Permission } from './state'

/** Push needs a service worker, the Push API and notifications, all three. */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
}

export function currentPermission(): Permission {
  return pushSupported() ? Notification.permission : 'unsupported'
}

/** base64url (the key as the server gives it) to bytes, as PushManager.subscribe wants them. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=')
  const raw = atob(base64)
  const bytes = new Uint8Array(raw.length)
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

function sameKey(key: ArrayBuffer | null | undefined, wanted: Uint8Array): boolean {
  if (!key) return false
  const have = new Uint8Array(key)
  return have.length === wanted.length && have.every((b, i) => b === wanted[i])
}

/** Only the endpoint and keys are sent (the contract ignores expirationTime). */
export type SubscriptionBody = Pick<PushSubscriptionBody, 'endpoint' | 'keys'>

/** The contract's body: exactly the endpoint and the two keys of the browser's JSON. */
export function subscriptionBody(sub: PushSubscription): SubscriptionBody {
  const json = sub.toJSON()
  const { p256dh, auth } = json.keys ?? {}
  if (!json.endpoint || !p256dh || !auth) throw new Error('The browser gave a subscription without its keys')
  return { endpoint: json.endpoint, keys: { p256dh, auth } }
}

export const fetchPushKey = () => call('GET /push/key', { anonymous: true }).then((r) => r.publicKey)

export const sendSubscription = (body: SubscriptionBody) => call('PUT /push/subscription', { body })

/** How long to wait for the service worker (never there in `vite dev`): then it is a failure, not a hang. */
const READY_MS = 10_000

/**
 * Subscribes this browser with the server's key (again, if it was made with another key:
 * a rotated VAPID key) and gives the server the subscription. Idempotent: a screen calls
 * it on every visit once allowed, which also delivers a renewed subscription.
 */
export async function subscribe(): Promise<SubscriptionBody> {
  const registration = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('No service worker')), READY_MS)),
  ])
  const key = base64UrlToBytes(await fetchPushKey())
  let sub = await registration.pushManager.getSubscription()
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe()
    sub = null
  }
  sub ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
  const body = subscriptionBody(sub)
  await sendSubscription(body)
  rememberEndpoint(body.endpoint)
  return body
}
