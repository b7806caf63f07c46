// The app's service worker, built by vite-plugin-pwa (injectManifest: it compiles this
// file and injects the build's file list at self.__WB_MANIFEST). The offline shell is
// what the generated worker did before: precache the build, answer every
// navigation but /api with index.html, take the page at once. Added for alerts on a locked phone: the
// pushes (decision 0015).
import { clientsClaim } from 'workbox-core'
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { notificationFor, parsePayload, pickWindow } from '@/lib/push/notification'
import { RENEWED_MESSAGE, PUSHED_MESSAGE } from '@/lib/push/messages'
import { setStrings } from '@/strings'
import { en } from '@/i18n/en'
import { hi } from '@/i18n/hi'
import { pa } from '@/i18n/pa'
import { storedForServiceWorker } from '@/i18n/languages'

// The worker cannot import() on demand, so it holds every catalogue; each push is worded
// in the language the app last chose (kept in the Cache API by src/i18n/language.ts).
const catalogues = { en, hi, pa }

// The app's TypeScript project has the DOM's types, not the worker's (the two libraries
// clash), so the few worker types used here are named here.
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification & { data?: { url?: string } }
}
interface SubscriptionChangeEvent extends ExtendableEvent {
  oldSubscription: PushSubscription | null
  newSubscription: PushSubscription | null
}
interface WindowClient {
  url: string
  focused: boolean
  focus(): Promise<WindowClient>
  navigate(url: string): Promise<WindowClient | null>
  postMessage(message: unknown): void
}
interface Worker {
  registration: ServiceWorkerRegistration
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>
    openWindow(url: string): Promise<WindowClient | null>
  }
  skipWaiting(): Promise<void>
  location: Location
  addEventListener(type: 'push', listener: (e: PushEvent) => void): void
  addEventListener(type: 'notificationclick', listener: (e: NotificationEvent) => void): void
  addEventListener(type: 'pushsubscriptionchange', listener: (e: SubscriptionChangeEvent) => void): void
}
declare global {
  interface Window {
    __WB_MANIFEST: Parameters<typeof precacheAndRoute>[0]
  }
}
const sw = self as unknown as Worker

// registerType 'autoUpdate': a new worker takes over at once, as the generated one did.
void sw.skipWaiting()
clientsClaim()
precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//] }))

/** Tells the open windows, so a visible screen fetches now rather than at its next poll. */
async function tellWindows(message: unknown) {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })
  for (const w of windows) w.postMessage(message)
}

sw.addEventListener('push', (event) => {
  let data: unknown = null
  try {
    data = event.data?.json() ?? null
  } catch {
    data = null
  }
  const payload = parsePayload(data)
  if (!payload) return
  const work = storedForServiceWorker().then((language) => {
    setStrings(catalogues[language])
    const note = notificationFor(payload)
    return note.show
      ? sw.registration.showNotification(note.title, note.options)
      : sw.registration.getNotifications({ tag: note.close }).then((shown) => shown.forEach((n) => n.close()))
  })
  event.waitUntil(Promise.all([work, tellWindows({ type: PUSHED_MESSAGE, kind: payload.kind })]))
})

sw.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = event.notification.data?.url ?? '/'
  const open = async () => {
    const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })
    const chosen = pickWindow(windows, url, sw.location.origin)
    if (!chosen) return sw.clients.openWindow(url)
    const target = chosen.navigate ? ((await chosen.client.navigate(url)) ?? chosen.client) : chosen.client
    // Focusing needs the tap's permission: without it (a window of another origin) the page is still there.
    return target.focus().catch(() => target)
  }
  event.waitUntil(open())
})

// The browser replaced the subscription (expired, or the push service rotated it). The
// worker holds no sign-in token, so it subscribes anew and the app sends it to the
// server (lib/push/client.ts: at once in an open window, else when the app next opens).
sw.addEventListener('pushsubscriptionchange', (event) => {
  const renew = async () => {
    const key = event.oldSubscription?.options.applicationServerKey
    const fresh = event.newSubscription ?? (key ? await sw.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }) : null)
    if (fresh) await tellWindows({ type: RENEWED_MESSAGE })
  }
  event.waitUntil(renew().catch(() => undefined))
})
