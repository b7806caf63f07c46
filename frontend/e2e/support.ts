import path from 'node:path'
import { expect, request, test as base, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test'

export { expect }

/** frontend/e2e-artifacts/screenshots, wherever Playwright was started from. */
export const screenshotPath = (file: string) =>
  path.join(base.info().project.testDir, '..', 'e2e-artifacts', 'screenshots', file)

/** Third-party hosts (map tiles) are blocked: the app must work without them. */
export async function blockThirdParty(page: Page) {
  await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort())
}

/** A phone's screen (CSS pixels). */
export const PHONE = { width: 390, height: 844 }

/**
 * Pauses every CSS animation in the context's pages (the pulsing "live" dots, the
 * spinners): headless Chromium draws a page with a running animation 60 times a second
 * in software, a quarter of a core for each such page left open while a test waits on
 * something else (docs/performance.md, "CI time"). Nothing a test looks for moves;
 * screenshots are taken with animations off anyway. A constructed stylesheet, which the
 * Content-Security-Policy allows (edge.spec.ts listens for anything it refuses). Every
 * context the helpers here make, and `test`'s own (below), has it.
 */
export async function stillAnimations(context: BrowserContext) {
  await context.addInitScript(() => {
    const still = new CSSStyleSheet()
    still.replaceSync('*, *::before, *::after { animation-play-state: paused !important; }')
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, still]
  })
}

/** A page in a browser context of its own (another person's phone or computer). */
export async function contextPage(browser: Browser, options: Parameters<Browser['newContext']>[0]): Promise<Page> {
  const context = await browser.newContext(options)
  await stillAnimations(context)
  const page = await context.newPage()
  await blockThirdParty(page)
  return page
}

// Signing in without the sign-in screen (frontend/README.md, "Browser tests"): a test
// that is not about signing in gets its session from one POST /api/auth/login, kept
// where the app keeps it (lib/session.ts: localStorage), and opens its first screen
// signed in. The sign-in and registration screens keep tests of their own (auth.spec.ts,
// a11y.spec.ts, languages.spec.ts). Each sign-in is a session of its own: sessions are
// never shared between tests or browser contexts, since a refresh token is single-use and
// a second use ends the session (lib/refresh.ts, shared/store/src/sessions.rs).

/** The seeded accounts (shared/store/src/seed.rs) and their local passwords. */
export const SEEDED = {
  demo: 'demo12345',
  admin: 'admin12345',
  crew1: 'crew12345',
  crew2: 'crew12345',
  crew3: 'crew12345',
  crew4: 'crew12345',
} as const
export type Seeded = keyof typeof SEEDED

/** What POST /api/auth/login and /register answer (docs/openapi.yaml, AuthResponse). */
type Auth = { token: string; refreshToken: string; expiresAt: string; user: { role: string }; role: string; id: number }

/** An API client of the app's origin (the API refuses another site's Origin). */
async function api(baseURL: string): Promise<APIRequestContext> {
  return request.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } })
}

const baseOf = (page: Page) => {
  const url = page.url().startsWith('http') ? page.url() : base.info().project.use.baseURL
  return new URL(url!).origin
}

async function apiLogin(baseURL: string, username: string, password: string): Promise<Auth> {
  const client = await api(baseURL)
  try {
    const res = await client.post('/api/auth/login', { data: { username, password } })
    expect(res.status(), `sign-in of ${username} through the API: ${await res.text()}`).toBe(200)
    return (await res.json()) as Auth
  } finally {
    await client.dispose()
  }
}

/** The session's localStorage entries, as lib/session.ts's saveSession writes them. */
const sessionEntries = (auth: Auth) => [
  { name: 'token', value: auth.token },
  { name: 'refreshToken', value: auth.refreshToken },
  { name: 'expiresAt', value: auth.expiresAt },
  { name: 'user', value: JSON.stringify(auth.user) },
]

/** A URL on `path` (a query the screen adds, as /hospitals/nearest does, allowed). */
const at = (path: string) => new RegExp(`^[^?]*${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([?#].*)?$`)

const entriesOf = (storage: Record<string, string>) => Object.entries(storage).map(([name, value]) => ({ name, value }))

/**
 * What the dispatcher's live map opens on (features/admin/api/live.ts keeps the last view
 * in localStorage): a few kilometres around `where`, as a dispatcher watching one area,
 * rather than the whole fleet of the seed, whose hundreds of rows and markers made every
 * screenshot of the page and every axe run on it cost seconds to a minute of Chromium
 * (docs/performance.md, "CI time"). For signIn's and signedIn's `storage`.
 */
export const liveViewAt = (where: { latitude: number; longitude: number }, zoom = 13) => ({
  'admin.liveView': JSON.stringify({ center: [where.latitude, where.longitude], zoom }),
})

/** Where the sign-in screen takes this account: crews to their job screen, others to the profile. */
const homeOf = (auth: Auth) => (auth.user.role === 'CREW' ? '/crew' : '/profile')

/**
 * Signs `page` in as `username` without the sign-in screen and opens `path` (by default
 * where the sign-in screen goes: /profile, or /crew for a crew), as `login` leaves it.
 * The session is written once, before the app's first script of the next page load;
 * later page loads keep whatever the app made of it (a renewed token, a sign-out).
 */
export async function signIn(
  page: Page,
  username: string,
  password?: string,
  { path, storage = {} }: { path?: string; storage?: Record<string, string> } = {},
) {
  const auth = await apiLogin(baseOf(page), username, password ?? SEEDED[username as Seeded])
  const once = `e2e.signedIn.${auth.id}.${Date.now()}${Math.random()}`
  await page.context().addInitScript(
    ({ once, entries }) => {
      if (localStorage.getItem(once)) return
      for (const e of entries) localStorage.setItem(e.name, e.value)
      localStorage.setItem(once, '1')
    },
    { once, entries: [...sessionEntries(auth), ...entriesOf(storage)] },
  )
  const target = path ?? homeOf(auth)
  await page.goto(target)
  await expect(page).toHaveURL(at(target))
  return auth
}

/**
 * A page signed in as `username` in a browser context of its own (another person's
 * phone or computer: `options` as for browser.newContext), third-party hosts blocked,
 * on `path` (by default where the sign-in screen goes).
 */
export async function signedInPage(
  browser: Browser,
  username: string,
  options: Parameters<Browser['newContext']>[0] = {},
  { password, path, storage = {} }: { password?: string; path?: string; storage?: Record<string, string> } = {},
): Promise<Page> {
  const baseURL = base.info().project.use.baseURL!
  const auth = await apiLogin(baseURL, username, password ?? SEEDED[username as Seeded])
  return openSignedIn(browser, auth, options, path, storage)
}

async function openSignedIn(browser: Browser, auth: Auth, options: Parameters<Browser['newContext']>[0], path?: string, storage: Record<string, string> = {}) {
  const baseURL = base.info().project.use.baseURL!
  const context = await browser.newContext({
    ...options,
    storageState: { cookies: [], origins: [{ origin: new URL(baseURL).origin, localStorage: [...sessionEntries(auth), ...entriesOf(storage)] }] },
  })
  await stillAnimations(context)
  const page = await context.newPage()
  await blockThirdParty(page)
  const target = path ?? homeOf(auth)
  await page.goto(target)
  await expect(page).toHaveURL(at(target))
  return page
}

/**
 * A new account (`<prefix>_…@example.com`, at 30.67, 74.33 as `register` fills it) made
 * through the API, and `page` signed in as it on `path` (default /profile). For tests
 * about something else than the registration screen (auth.spec.ts has that).
 */
export async function newUser(page: Page, { prefix = 'e2e', phone = '+15550199', password = 'e2e-secret-1', path }: { prefix?: string; phone?: string; password?: string; path?: string } = {}) {
  const username = uniqueName(prefix)
  const client = await api(baseOf(page))
  try {
    const res = await client.post('/api/auth/register', {
      data: { username, email: `${username}@example.com`, password, phone, latitude: 30.67, longitude: 74.33 },
    })
    expect(res.status(), `registration of ${username} through the API: ${await res.text()}`).toBe(201)
  } finally {
    await client.dispose()
  }
  await signIn(page, username, password, { path })
  return username
}

/**
 * Playwright's `test` for this suite (import `test` and `expect` from here, not from
 * '@playwright/test'): its `page` and `context` have their animations paused
 * (stillAnimations), and `signedIn` gives a page signed in as a seeded account (or any,
 * with its password) in a context of its own, closed after the test:
 *   test('...', async ({ signedIn }) => { const admin = await signedIn('admin') })
 *   const crew = await signedIn('crew1', { viewport: PHONE, geolocation, permissions: ['geolocation'] })
 */
export const test = base.extend<{
  signedIn: (
    username: string,
    options?: Parameters<Browser['newContext']>[0],
    more?: { password?: string; path?: string; storage?: Record<string, string> },
  ) => Promise<Page>
}>({
  context: async ({ context }, provide) => {
    await stillAnimations(context)
    await provide(context)
  },
  signedIn: async ({ browser }, provide) => {
    const opened: BrowserContext[] = []
    await provide(async (username, options, more) => {
      const page = await signedInPage(browser, username, options, more)
      opened.push(page.context())
      return page
    })
    for (const context of opened) await context.close().catch(() => undefined)
  },
})

/** Great-circle distance in km. */
function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const rad = Math.PI / 180
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2
  return 12_742 * Math.asin(Math.sqrt(h))
}

type CrewMe = {
  ambulance: { number: string; status: string; notResponding: string | null; hospital: { name: string }; position: { latitude: number; longitude: number; at: string | null } | null }
  job: unknown
}

/**
 * A seeded crew account (but those in `skip`) whose ambulance is free, signed in on a
 * phone at `where` (location shared), on its job screen once its position there is
 * taken. Which crews are free is asked of the API (`GET /api/crew/me`), and of the free
 * ones the one whose last position is the likeliest to be believed at `where` at once
 * is chosen: the server refuses a report implying over 250 km/h from the last one and
 * believes a new place only after 20 s of agreeing reports (shared/domain/src/position.rs), so a
 * phone another test left 20 km away a minute ago would wait that long.
 */
export async function crewWithAFreeAmbulance(browser: Browser, where: { latitude: number; longitude: number }, skip: string[] = []) {
  const baseURL = base.info().project.use.baseURL!
  const client = await api(baseURL)
  const free: { username: string; auth: Auth; me: CrewMe; speed: number }[] = []
  try {
    for (const username of (['crew1', 'crew2', 'crew3', 'crew4'] as const).filter((u) => !skip.includes(u))) {
      const auth = await apiLogin(baseURL, username, SEEDED[username])
      const res = await client.get('/api/crew/me', { headers: { Authorization: `Bearer ${auth.token}` } })
      expect(res.status(), `GET /api/crew/me as ${username}`).toBe(200)
      const me = (await res.json()) as CrewMe
      if (me.job !== null || me.ambulance.status !== 'AVAILABLE' || me.ambulance.notResponding !== null) continue
      const last = me.ambulance.position
      const hours = last?.at ? Math.max(Date.now() - Date.parse(last.at), 1000) / 3_600_000 : Infinity
      free.push({ username, auth, me, speed: last?.at ? km(last, where) / hours : 0 })
    }
  } finally {
    await client.dispose()
  }
  free.sort((a, b) => a.speed - b.speed)
  const chosen = free[0]
  if (!chosen) throw new Error('no seeded crew account has a free ambulance')
  const page = await openSignedIn(browser, chosen.auth, { viewport: PHONE, geolocation: where, permissions: ['geolocation'] })
  const heading = page.getByRole('heading', { level: 1 })
  await expect(heading).toHaveText(`Ambulance ${chosen.me.ambulance.number}`)
  await expect(page.getByText('No job right now')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Available' })).toHaveAttribute('aria-pressed', 'true')
  // The server has taken its position at `where` before the test goes on (at once, unless
  // every free crew was left too far away too recently: then after the 20 s; the app
  // sends again every 5 s).
  await expect(page.getByText('Sharing your location')).toBeVisible({ timeout: 60_000 })
  return { page, number: chosen.me.ambulance.number, hospital: chosen.me.ambulance.hospital.name, username: chosen.username }
}

/**
 * Leaves the seeded fleet as a test found it, however far the test got: its booking
 * cancelled and the named ambulances AVAILABLE again (which also lifts "not
 * responding"), through the admin's API. Without it a test that fails half-way holds
 * the crews it took, and every later test that needs a free crew fails too. Refusals
 * (already final, already free) are what a finished test leaves, and are ignored.
 */
export async function leaveFree(baseURL: string, { bookingId, ambulances }: { bookingId?: number; ambulances: string[] }) {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } })
  try {
    const login = await api.post('/api/auth/login', { data: { username: 'admin', password: 'admin12345' } })
    expect(login.ok(), `admin login for the clean-up: ${login.status()}`).toBeTruthy()
    const headers = { Authorization: `Bearer ${(await login.json()).token}` }
    if (bookingId !== undefined) {
      await api.patch(`/api/admin/bookings/status?bookingId=${bookingId}&status=CANCELLED`, { headers })
    }
    const listed = await api.get('/api/admin/ambulances/all', { headers })
    expect(listed.ok(), `the fleet for the clean-up: ${listed.status()} ${await listed.text()}`).toBeTruthy()
    const fleet = (await listed.json()) as { id: number; number: string }[]
    for (const a of fleet.filter((a) => ambulances.includes(a.number))) {
      await api.patch(`/api/admin/ambulance/status?ambulanceId=${a.id}&status=AVAILABLE`, { headers })
    }
  } catch (e) {
    // Called from a test's `finally`: a clean-up that failed must not hide why the test
    // failed (a throw here would replace its error), so it is said here instead; a
    // later test that finds no free crew names the crews it tried.
    console.error(`leaveFree: the clean-up failed: ${e instanceof Error ? e.message : String(e)}`)
  } finally {
    await api.dispose()
  }
}

/** Presses and holds the emergency button (1.5 s fills it). */
export async function hold(page: Page) {
  const box = (await page.getByRole('button', { name: 'Hold to send an ambulance' }).boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.waitForTimeout(1800)
  await page.mouse.up()
}

export function uniqueName(prefix: string) {
  return `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
}

export async function login(page: Page, username: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/profile$/)
}

/** Fills the registration form already shown (email: <username>@example.com) and sends it. */
export async function register(page: Page, user: { username: string; password: string; phone: string }) {
  await page.getByLabel('Username').fill(user.username)
  await page.getByLabel('Email').fill(`${user.username}@example.com`)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await page.getByLabel('Phone').fill(user.phone)
  await page.getByLabel('Latitude').fill('30.67')
  await page.getByLabel('Longitude').fill('74.33')
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page).toHaveURL(/\/login$/)
}

/** Fills the patient's details in a booking form: the page's, or the dialog's (`scope`). */
export async function fillPatient(
  scope: Page | Locator,
  patient: { name: string; age: string; gender: 'Male' | 'Female' | 'Other'; condition: string },
) {
  await scope.getByLabel('Patient Name').fill(patient.name)
  await scope.getByLabel('Age', { exact: true }).fill(patient.age)
  await scope.getByLabel('Gender').selectOption(patient.gender)
  await scope.getByLabel('Medical Condition').fill(patient.condition)
}

export async function logout(page: Page) {
  await page.getByRole('button', { name: /account menu$/ }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
}

const SHOT_SIZES = {
  desktop: { width: 1280, height: 800 },
  mobile: PHONE,
}

/**
 * Saves `<name>-desktop.png` (1280x800) and `<name>-mobile.png` (390x844), full page, or
 * only the `phone` one (`<name>.png`); with a modal dialog open, the viewport only: that
 * is all a person sees then (a full page would show the backdrop over the first
 * screenful only). The page keeps its size. `networkidle` is not waited for offline.
 */
export async function screenshot(page: Page, name: string, { phone = false } = {}) {
  const before = page.viewportSize()
  if (await page.evaluate(() => navigator.onLine)) await page.waitForLoadState('networkidle')
  const modal = (await page.locator('dialog[open]').count()) > 0
  const kinds = phone ? (['mobile'] as const) : (['desktop', 'mobile'] as const)
  for (const kind of kinds) {
    await page.setViewportSize(SHOT_SIZES[kind])
    // From the top: a full page taken while scrolled draws a sticky top bar in the middle.
    await page.evaluate(async () => {
      window.scrollTo(0, 0)
      await document.fonts.ready
    })
    const file = phone ? `${name}.png` : `${name}-${kind}.png`
    await page.screenshot({ path: screenshotPath(file), fullPage: !modal, animations: 'disabled' })
  }
  await page.setViewportSize(before ?? SHOT_SIZES.desktop)
}
