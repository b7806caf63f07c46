import { afterEach, vi } from 'vitest'

// jsdom has no service worker, Push API or notifications: a stand-in of the three, with
// what the browser would answer, so the push client and the screens run as in a browser.

/** A 65-byte uncompressed P-256 point's worth of bytes (the stand-in never checks it). */
export const SERVER_KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U'

export interface FakePush {
  /** What the browser's prompt answers (granted unless a test says otherwise). */
  answer: NotificationPermission
  /** The browser's subscription, once there is one. */
  subscription: PushSubscription | null
  subscribe: ReturnType<typeof vi.fn>
  unsubscribe: ReturnType<typeof vi.fn>
  requestPermission: ReturnType<typeof vi.fn>
  /** Sends the page what the service worker would post. */
  post: (data: unknown) => void
}

function makeSubscription(fake: FakePush, endpoint: string, key: BufferSource): PushSubscription {
  return {
    endpoint,
    options: { userVisibleOnly: true, applicationServerKey: key instanceof Uint8Array ? key.buffer : key },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'BPpublic', auth: 'secret16' } }),
    unsubscribe: fake.unsubscribe,
    getKey: () => null,
  } as unknown as PushSubscription
}

const cleanups: (() => void)[] = []

/** Installs the stand-in; `permission` is the browser's answer so far. */
export function fakePush(permission: NotificationPermission = 'default'): FakePush {
  const listeners = new Set<(e: MessageEvent) => void>()
  let n = 0
  const fake: FakePush = {
    answer: 'granted',
    subscription: null,
    unsubscribe: vi.fn(async () => {
      fake.subscription = null
      return true
    }),
    subscribe: vi.fn(async (options: PushSubscriptionOptionsInit) => {
      fake.subscription = makeSubscription(fake, `https://push.example/send/${++n}`, options.applicationServerKey as BufferSource)
      return fake.subscription
    }),
    requestPermission: vi.fn(async () => {
      notification.permission = fake.answer
      return fake.answer
    }),
    post: (data) => listeners.forEach((l) => l(new MessageEvent('message', { data }))),
  }
  const pushManager = { subscribe: fake.subscribe, getSubscription: async () => fake.subscription }
  const registration = { pushManager }
  const serviceWorker = {
    ready: Promise.resolve(registration),
    getRegistration: async () => registration,
    addEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.add(l),
    removeEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.delete(l),
  }
  const notification = { permission, requestPermission: fake.requestPermission }
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true })
  vi.stubGlobal('PushManager', function PushManager() {})
  vi.stubGlobal('Notification', notification)
  cleanups.push(() => delete (navigator as unknown as Record<string, unknown>).serviceWorker)
  return fake
}

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})
