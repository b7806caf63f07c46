import path from 'node:path'
import { expect, request, test, type Browser, type Locator, type Page } from '@playwright/test'

/** frontend/e2e-artifacts/screenshots, wherever Playwright was started from. */
export const screenshotPath = (file: string) =>
  path.join(test.info().project.testDir, '..', 'e2e-artifacts', 'screenshots', file)

/** Third-party hosts (map tiles) are blocked: the app must work without them. */
export async function blockThirdParty(page: Page) {
  await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort())
}

/** A phone's screen (CSS pixels). */
export const PHONE = { width: 390, height: 844 }

/** A page in a browser context of its own (another person's phone or computer). */
export async function contextPage(browser: Browser, options: Parameters<Browser['newContext']>[0]): Promise<Page> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  await blockThirdParty(page)
  return page
}

/**
 * Signs in the seeded crew accounts in turn (but those in `skip`), each on a phone at
 * `where` (location shared), and keeps the first whose ambulance is free; the others
 * are closed.
 */
export async function crewWithAFreeAmbulance(browser: Browser, where: { latitude: number; longitude: number }, skip: string[] = []) {
  for (const n of [1, 2, 3, 4].filter((n) => !skip.includes(`crew${n}`))) {
    const page = await contextPage(browser, { viewport: PHONE, geolocation: where, permissions: ['geolocation'] })
    await page.goto('/login')
    await page.getByLabel('Username').fill(`crew${n}`)
    await page.getByLabel('Password', { exact: true }).fill('crew12345')
    await page.getByRole('button', { name: 'Sign In' }).click()
    // Crew land on /crew, not on the profile.
    await expect(page).toHaveURL(/\/crew$/)
    const heading = page.getByRole('heading', { level: 1 })
    await expect(heading).toHaveText(/^\s*Ambulance /)
    await expect(page.getByText(/No job right now|Current job #/)).toBeVisible()
    const idle = (await page.getByText('No job right now').count()) > 0
    if (idle && (await page.getByRole('button', { name: 'Available' }).getAttribute('aria-pressed')) === 'true') {
      const number = (await heading.innerText()).trim().replace(/^Ambulance /, '')
      const subtitle = await heading.locator('xpath=following-sibling::p[1]').innerText()
      const hospital = subtitle.split(' · ').slice(1).join(' · ')
      // The server has taken its position at `where` before the test goes on. A phone that
      // another test left kilometres away is believed there only after 20 s of agreeing
      // reports (the speed rule answers 409 until then; the app tries again every 5 s).
      await expect(page.getByText('Sharing your location')).toBeVisible({ timeout: 60_000 })
      return { page, number, hospital, username: `crew${n}` }
    }
    await page.context().close()
  }
  throw new Error('no seeded crew account has a free ambulance')
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
    const fleet = (await (await api.get('/api/admin/ambulances/all', { headers })).json()) as { id: number; number: string }[]
    for (const a of fleet.filter((a) => ambulances.includes(a.number))) {
      await api.patch(`/api/admin/ambulance/status?ambulanceId=${a.id}&status=AVAILABLE`, { headers })
    }
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
