import { createECDH, createDecipheriv, generateKeyPairSync, hkdfSync, randomBytes, type ECDH } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type APIRequestContext, type BrowserContext, type Page } from '@playwright/test'
import { contextPage, crewWithAFreeAmbulance, expect, hold, liveViewAt, newUser, PHONE, screenshot, signIn, test, uniqueName } from './support'
import { expectAccessible } from './axe'

// The phone rings (decision 0015), in the browser: the crew's phone allows notifications and
// subscribes; a job's push reaches the service worker, which shows a notification that
// a tap opens; the crew phone without alerts says so and keeps its screen on.
//
// Chromium here cannot reach a real push service (no Google account, no network), so
// that third party is stood in for: PushManager.subscribe in the page returns a
// subscription whose endpoint is a push service this test runs on loopback, with keys
// the test made, so it can decrypt (RFC 8291, aes128gcm) what the server sends there.
// The decrypted payload goes to the service worker the way DevTools' "Push" button
// does it (CDP ServiceWorker.deliverPushMessage). A stack without the push routes yet
// (the server side landing on its own branch) gets them stood in for by the test, and
// the payload is then built per the contract (docs/openapi.yaml, decision 0014): the test says which.

// The crew 200 m from the pickup, away from the other specs' places.
const CREW_AT = { latitude: 30.752, longitude: 74.262 }
const PICKUP = { latitude: 30.75, longitude: 74.262 }

/** A push service on loopback: what was sent to each endpoint, raw. */
class StandInPushService {
  readonly received: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = []
  private server: Server | null = null
  origin = ''

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        this.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
        res.writeHead(201).end()
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async stop() {
    await new Promise((resolve) => this.server?.close(resolve))
  }
}

/** A browser's push keys, made by the test: the server encrypts to them, the test decrypts. */
function deviceKeys() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16) }
}

/** RFC 8291 + RFC 8188: the one-record aes128gcm body a push service receives, decrypted. */
function decryptPush(body: Buffer, keys: { ecdh: ECDH; auth: Buffer }): string {
  const salt = body.subarray(0, 16)
  const idLength = body.readUInt8(20)
  const serverPublic = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  const shared = keys.ecdh.computeSecret(serverPublic)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), serverPublic])
  const ikm = Buffer.from(hkdfSync('sha256', shared, keys.auth, keyInfo, 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  // The last record ends with the delimiter 2, then any padding zeros.
  let end = plain.length - 1
  while (end >= 0 && plain[end] === 0) end--
  expect(plain[end], 'the last record delimiter').toBe(2)
  return plain.subarray(0, end).toString('utf8')
}

/**
 * Replaces the browser's PushManager with one that hands out `endpoint` with the test's
 * keys (the browser's own would need a push service this machine cannot reach).
 */
async function standInPushManager(context: BrowserContext, sub: { endpoint: string; p256dh: string; auth: string }) {
  await context.addInitScript((s) => {
    const b64 = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer
    const key = 'e2e.pushKey'
    const make = (serverKey: ArrayBuffer) => ({
      endpoint: s.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: serverKey },
      getKey: (name: string) => b64(name === 'p256dh' ? s.p256dh : s.auth),
      toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: { p256dh: s.p256dh, auth: s.auth } }),
      unsubscribe: async () => {
        localStorage.removeItem(key)
        return true
      },
    })
    const stored = () => {
      const saved = localStorage.getItem(key)
      return saved ? make(Uint8Array.from(JSON.parse(saved) as number[]).buffer) : null
    }
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const serverKey = new Uint8Array(options!.applicationServerKey as ArrayBuffer)
      localStorage.setItem(key, JSON.stringify(Array.from(serverKey)))
      return stored() as unknown as PushSubscription
    }
    PushManager.prototype.getSubscription = async () => stored() as unknown as PushSubscription
  }, sub)
}

/**
 * The stack's push routes, or stand-ins for them while the server has none yet: returns
 * whether the server has them, and the bodies the stand-ins were sent.
 */
async function pushRoutes(page: Page, request: APIRequestContext) {
  const real = (await request.get('/api/push/key')).status() === 200
  const sent: { method: string; body: unknown }[] = []
  if (!real) {
    // Any valid P-256 point: the stand-in service never checks a signature made with it.
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    const raw = publicKey.export({ format: 'jwk' })
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(raw.x!, 'base64url'), Buffer.from(raw.y!, 'base64url')]).toString('base64url')
    await page.context().route('**/api/push/key', (route) => route.fulfill({ json: { publicKey: point } }))
    await page.context().route('**/api/push/subscription', (route) => {
      sent.push({ method: route.request().method(), body: route.request().postDataJSON() })
      return route.fulfill({ status: 204 })
    })
  }
  return { real, sent }
}

/**
 * A phone that has never been asked about notifications. Every permission the browser
 * itself checks is Playwright's grant for the whole context (geolocation, the screen
 * wake lock, and notifications once the person allows them: the service worker's
 * notifications need the real one). A context's grants leave every other permission
 * blocked, and headless Chromium has no prompt, so the one state they cannot give, a
 * page that was never asked ("default"), is stood in for in the page: until the page
 * asks (Notification.requestPermission, which then answers as the browser does), it
 * reads "default".
 *
 * This spec set those states itself before, through a DevTools session of its own
 * (Browser.setPermission for this origin), and once lost them part-way: the page then
 * read notifications as blocked, Playwright's grant for every origin. An override held
 * by a session of the test's own is only as lasting as that session (Chromium resets
 * all of a context's overrides, Playwright's too, when a session that set one ends:
 * BrowserHandler::Disable, seen here by detaching one); the grants are now all
 * Playwright's, in its own session, which lasts as long as the browser.
 */
async function standInNeverAsked(context: BrowserContext) {
  await context.addInitScript(() => {
    const key = 'e2e.neverAsked'
    const real = Object.getOwnPropertyDescriptor(Notification, 'permission')!.get!
    Object.defineProperty(Notification, 'permission', {
      configurable: true,
      get: () => (localStorage.getItem(key) ? 'default' : real.call(Notification)),
    })
    const ask = Notification.requestPermission.bind(Notification)
    Notification.requestPermission = () => {
      localStorage.removeItem(key)
      return ask()
    }
  })
}

/** From the next page load on, the page has never been asked about notifications. */
const neverAsked = (page: Page) => page.evaluate(() => localStorage.setItem('e2e.neverAsked', '1'))

/** The service worker's registration id, for DevTools' push delivery. */
async function registrationId(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  const scope = new URL('/', page.url()).href
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => r.scopeURL === scope && !r.isDeleted)
      if (ours) resolve(ours.registrationId)
    })
  })
  await cdp.send('ServiceWorker.enable')
  return { cdp, id: await found, origin: new URL(page.url()).origin }
}

type ShownNotification = { title: string; body: string; tag: string; requireInteraction: boolean; data: { url?: string } }

const notifications = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      requireInteraction: n.requireInteraction,
      data: n.data as { url?: string },
    })),
  ) as Promise<ShownNotification[]>

test("the crew's phone allows alerts and subscribes; a job rings it, and a tap opens the job", async ({ browser }, info) => {
  test.setTimeout(240_000)
  const service = new StandInPushService()
  await service.start()
  const keys = deviceKeys()
  const endpoint = `${service.origin}/push/${uniqueName('crew')}`

  const crew = await crewWithAFreeAmbulance(browser, CREW_AT)
  const { page } = crew
  const context = page.context()
  await standInPushManager(context, { endpoint, p256dh: keys.p256dh, auth: keys.auth.toString('base64url') })
  await standInNeverAsked(context)
  const routes = await pushRoutes(page, context.request)
  info.annotations.push({ type: 'server', description: routes.real ? 'the stack served the push routes' : 'push routes stood in for (the server has none yet)' })
  await context.grantPermissions(['screen-wake-lock'])
  await neverAsked(page)
  await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })

  // One explained step, and no prompt until it is tapped.
  const step = page.getByRole('region', { name: 'Let this phone ring when you get a job' })
  await expect(step).toBeVisible()
  expect(await page.evaluate(() => Notification.permission)).toBe('default')
  await expectAccessible(page, 'the crew asked for alerts')
  await screenshot(page, 'push-crew-ask')

  // The crew allows notifications (the answer the browser's prompt then gives) and the phone subscribes.
  await context.grantPermissions(['notifications'])
  await step.getByRole('button', { name: 'Turn on alerts' }).click()
  await expect(page.getByText('Alerts are on: this phone rings when you get a job.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Alerts are off: keep this screen open' })).toHaveCount(0)
  if (!routes.real) {
    expect(routes.sent).toEqual([{ method: 'PUT', body: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth.toString('base64url') } } }])
  }
  await screenshot(page, 'push-crew-on')

  // A requester nearby sends an emergency; it goes to this crew.
  const user = await contextPage(browser, { viewport: PHONE, geolocation: PICKUP, permissions: ['geolocation'] })
  await standInNeverAsked(user.context())
  await newUser(user, { prefix: 'rings', phone: '+15550126' })
  // Never asked yet (the context's geolocation grant leaves notifications blocked).
  await neverAsked(user)
  await user.goto('/emergency')
  await hold(user)
  await expect(user).toHaveURL(/\/bookings\/\d+$/)
  const bookingId = Number(new URL(user.url()).pathname.split('/').pop())
  // The requester's step, before the ambulance is there.
  await expect(user.getByRole('region', { name: 'Tell me when the ambulance arrives' })).toBeVisible()
  await screenshot(user, 'push-trip-ask')

  // The crew's phone is elsewhere in the app (say the profile) when the job comes.
  await page.goto('/profile')
  let payload: string
  if (routes.real) {
    // The server's push, as the stand-in push service got it, decrypted with the phone's keys.
    await expect.poll(() => service.received.filter((r) => r.path === new URL(endpoint).pathname).length, { timeout: 30_000 }).toBeGreaterThan(0)
    const push = service.received.find((r) => r.path === new URL(endpoint).pathname)!
    expect(push.headers['content-encoding']).toBe('aes128gcm')
    expect(push.headers.urgency).toBe('high')
    payload = decryptPush(push.body, keys)
    expect(JSON.parse(payload)).toMatchObject({ kind: 'JOB', bookingId, bookingType: 'EMERGENCY' })
  } else {
    payload = JSON.stringify({ kind: 'JOB', bookingId, bookingType: 'EMERGENCY', answerBy: new Date(Date.now() + 60_000).toISOString(), distanceKm: 0.2 })
  }
  // The worker shows a notification only while they are allowed: if that was lost on
  // the way (as a DevTools session's overrides once were, above), say so here.
  expect(await page.evaluate(() => Notification.permission), 'notifications still allowed when the push comes').toBe('granted')
  const sw = await registrationId(page)
  await sw.cdp.send('ServiceWorker.deliverPushMessage', { origin: sw.origin, registrationId: sw.id, data: payload })

  // One notification for the job: it rings until answered and leads to /crew.
  await expect.poll(async () => (await notifications(page)).map((n) => n.tag), { timeout: 15_000 }).toEqual([`job-${bookingId}`])
  const [shown] = await notifications(page)
  expect(shown).toMatchObject({ title: `New emergency job #${bookingId}`, requireInteraction: true, data: { url: '/crew' } })
  expect(shown!.body).toMatch(/^\d+\.\d km away · answer by /)
  // The same push again replaces it (one per booking).
  await sw.cdp.send('ServiceWorker.deliverPushMessage', { origin: sw.origin, registrationId: sw.id, data: payload })
  await page.waitForTimeout(500)
  expect((await notifications(page)).length).toBe(1)

  // Tapped: the service worker's notificationclick (dispatched in the worker, as DevTools
  // has no click for a notification) takes the open window to the job.
  const worker = context.serviceWorkers().find((w) => w.url().endsWith('/sw.js'))!
  await worker.evaluate(async (tag) => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean }
    const [notification] = await scope.registration.getNotifications({ tag })
    const Ctor = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent
    try {
      scope.dispatchEvent(new Ctor('notificationclick', { notification: notification! }))
    } catch {
      // A synthetic event's waitUntil throws after the handler has started its work.
    }
  }, `job-${bookingId}`)
  await expect(page).toHaveURL(/\/crew$/)
  await expect(page.getByRole('heading', { name: `Current job #${bookingId}` })).toBeVisible()
  await expect.poll(async () => (await notifications(page)).length).toBe(0)

  // Taken away (JOB_GONE): its notification goes.
  await sw.cdp.send('ServiceWorker.deliverPushMessage', { origin: sw.origin, registrationId: sw.id, data: payload })
  await expect.poll(async () => (await notifications(page)).length).toBe(1)
  await sw.cdp.send('ServiceWorker.deliverPushMessage', { origin: sw.origin, registrationId: sw.id, data: JSON.stringify({ kind: 'JOB_GONE', bookingId }) })
  await expect.poll(async () => (await notifications(page)).length).toBe(0)

  // Leave the ambulance free for the other specs: the requester cancels.
  await user.getByRole('button', { name: 'Cancel booking' }).click()
  await user.getByRole('dialog').getByRole('button', { name: 'Cancel booking' }).click()
  await expect(page.getByText('No job right now')).toBeVisible({ timeout: 30_000 })

  // Signing out takes the subscription back.
  await page.getByRole('button', { name: 'Open menu' }).click()
  await page.getByRole('navigation', { name: 'Mobile' }).getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
  if (!routes.real) await expect.poll(() => routes.sent.at(-1)).toEqual({ method: 'DELETE', body: { endpoint } })
  await expect.poll(() => page.evaluate(() => localStorage.getItem('e2e.pushKey'))).toBeNull()
  for (const p of [page, user]) await p.context().close()
  await service.stop()
})

test('without alerts the crew screen says so and keeps the screen on', async ({ browser }) => {
  test.setTimeout(120_000)
  const crew = await crewWithAFreeAmbulance(browser, CREW_AT)
  const { page } = crew
  await standInNeverAsked(page.context())
  await page.context().grantPermissions(['screen-wake-lock'])
  // Blocked in the browser (what the context's permissions leave notifications at).
  await page.reload()
  const off = page.getByRole('region', { name: 'Alerts are off: keep this screen open' })
  await expect(off).toBeVisible()
  await expect(off.getByText(/^Notifications are blocked for this site/)).toBeVisible()
  await expect(off.getByText('The screen stays on while this page is open.')).toBeVisible()
  expect(await page.evaluate(() => Notification.permission)).toBe('denied')
  await screenshot(page, 'push-crew-blocked')

  // Never answered: the step; "Not now" turns it into the plain notice, for good.
  await neverAsked(page)
  await page.reload()
  await page.getByRole('region', { name: 'Let this phone ring when you get a job' }).getByRole('button', { name: 'Not now' }).click()
  await expect(off).toBeVisible()
  await expect(off.getByText('The screen stays on while this page is open.')).toBeVisible()
  await expect(off.getByRole('button', { name: 'Turn on alerts' })).toBeVisible()
  await expectAccessible(page, 'the crew without alerts')
  await screenshot(page, 'push-crew-off')
  await page.reload()
  await expect(off).toBeVisible()
  await expect(page.getByRole('button', { name: 'Not now' })).toHaveCount(0)
  await page.context().close()
})

test('the dispatcher is offered notifications for new alerts on the live map', async ({ browser }) => {
  const admin = await contextPage(browser, { viewport: { width: 1280, height: 800 } })
  await signIn(admin, 'admin', undefined, { path: '/admin/live', storage: liveViewAt(CREW_AT) })
  const step = admin.getByRole('region', { name: 'Alerts on this computer' })
  await expect(step.getByRole('button', { name: 'Notify me of new alerts' })).toBeVisible()
  await screenshot(admin, 'push-admin-ask')
  await admin.context().close()
})
