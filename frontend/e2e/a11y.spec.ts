import { type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { runAxe, serious, type AxeViolation } from './axe'
import { blockThirdParty, crewWithAFreeAmbulance, expect, fillPatient, screenshot, signIn, test } from './support'

// Accessibility in the browser: axe-core (WCAG 2.0/2.1 A and AA) on every screen and
// every dialog, signed out, as a user, as an admin, as a crew (between jobs and with
// a job) and as hospital staff (the incoming board), at 1280 and 390 px wide; every
// control of a screen reached with Tab; dialogs that keep Tab inside, close on Escape
// and give focus back; and a booking made with the keyboard alone.

test.beforeEach(async ({ page }) => blockThirdParty(page))

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]

/** Waits until the screen has loaded its data: no spinner left in the main area. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle')
  await expect(page.locator('main [role="status"]').filter({ hasText: /^(Loading|Finding)/ })).toHaveCount(0)
}

/**
 * Runs axe on what the page shows now and fails listing every serious or critical
 * violation with the selector of each element it concerns.
 */
async function expectAccessible(page: Page, screen: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await axeCheck(page, screen)
    } catch (e) {
      if (!(e instanceof PageChanged) || attempt === 3) throw e
      await settled(page)
    }
  }
}

async function axeCheck(page: Page, screen: string) {
  const { violations, incomplete } = await runAxe(page)
  const found = [...serious(violations), ...(await gradientContrast(page, incomplete))]
  expect(found, `axe found serious or critical violations on ${screen}`).toEqual([])
}

/**
 * axe cannot tell the contrast of text on a gradient and leaves it "incomplete". Here
 * each such gradient is replaced in turn by each of its own colour stops as a solid
 * background, and axe checks the text against every one: the text must be readable
 * at both ends of the gradient, so on all of it.
 */
async function gradientContrast(page: Page, incomplete: AxeViolation[]) {
  const targets = incomplete
    .filter((v) => v.id === 'color-contrast')
    .flatMap((v) => v.nodes)
    .filter((n) => n.any.some((c) => (c.data as { messageKey?: string } | null)?.messageKey === 'bgGradient'))
    .map((n) => String(n.target[0]))
  if (targets.length === 0) return []
  const gradients: string[][] = await page.evaluate((selectors) => {
    const found = new Map<Element, string[]>()
    for (const selector of selectors) {
      let el = document.querySelector(selector)
      while (el && !getComputedStyle(el).backgroundImage.includes('gradient')) el = el.parentElement
      if (!el || found.has(el)) continue
      const stops = getComputedStyle(el).backgroundImage.match(/(?:oklch|oklab|rgba?|hsla?|lab|lch|color)\([^)]*\)/g) ?? []
      el.setAttribute('data-a11y-gradient', String(found.size))
      found.set(el, stops)
    }
    return [...found.values()]
  }, targets)
  const problems: string[] = []
  for (const [i, stops] of gradients.entries()) {
    const selector = `[data-a11y-gradient="${i}"]`
    for (const stop of stops) {
      const there = await page.evaluate(
        ([selector, color]) => {
          const el = document.querySelector<HTMLElement>(selector!)
          if (el) {
            el.style.backgroundImage = 'none'
            el.style.backgroundColor = color!
          }
          return !!el
        },
        [selector, stop],
      )
      // The element was rendered anew meanwhile: the caller starts over.
      if (!there) throw new PageChanged()
      const { violations } = await runAxe(page, { rules: ['color-contrast'], include: [selector] })
      problems.push(...serious(violations, ` (on a gradient, at its stop ${stop})`))
    }
    await page.evaluate((selector) => {
      const el = document.querySelector<HTMLElement>(selector)
      el?.style.removeProperty('background-image')
      el?.style.removeProperty('background-color')
      el?.removeAttribute('data-a11y-gradient')
    }, selector)
  }
  return problems
}

class PageChanged extends Error {}

/** axe at desktop and phone width (the layout, and what is shown, differs). */
async function checkScreen(page: Page, screen: string) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await settled(page)
    await expectAccessible(page, `${screen} (${size.width} px)`)
  }
  await page.setViewportSize(WIDTHS[0]!)
}

/**
 * Tabs through the whole page and checks that every visible, enabled control received
 * focus (one radio per group: arrows move within it). Returns how many were reached.
 */
async function expectEveryControlReachable(page: Page, screen: string) {
  const expected: string[] = await page.evaluate(() => {
    const seenGroups = new Set<string>()
    const controls = Array.from(
      document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]'),
    ).filter((el) => {
      if (el.matches(':disabled') || el.tabIndex < 0 || el.closest('[inert]')) return false
      if (el instanceof HTMLInputElement && el.type === 'hidden') return false
      const style = getComputedStyle(el)
      if (style.visibility === 'hidden' || style.display === 'none' || el.getClientRects().length === 0) return false
      if (el instanceof HTMLInputElement && el.type === 'radio') {
        if (seenGroups.has(el.name)) return false
        seenGroups.add(el.name)
      }
      return true
    })
    return controls.map((el, i) => {
      const key = el instanceof HTMLInputElement && el.type === 'radio' ? `radio:${el.name}` : `kbd-${i}`
      el.dataset.kbd = key
      if (el instanceof HTMLInputElement && el.type === 'radio') {
        document.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${el.name}"]`).forEach((r) => (r.dataset.kbd = key))
      }
      return key
    })
  })
  // From the first control (the skip link) until focus leaves the page past the last
  // one; scrollable areas take a stop of their own, so the count is only a bound.
  await page.locator(`[data-kbd="${expected[0]}"]`).first().focus()
  const reached = new Set<string>([expected[0]!])
  for (let i = 0; i < expected.length * 2 + 20; i++) {
    await page.keyboard.press('Tab')
    const { key, left } = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null
      return { key: a?.dataset.kbd ?? null, left: !a || a === document.body }
    })
    if (key) reached.add(key)
    if (left && i > 0) break
  }
  const missed = await page.evaluate(
    (keys) =>
      keys.map((k) => {
        const el = document.querySelector<HTMLElement>(`[data-kbd="${k}"]`)
        return `${el?.tagName.toLowerCase()} "${(el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim().slice(0, 40)}"`
      }),
    expected.filter((k) => !reached.has(k)),
  )
  expect(missed, `controls on ${screen} that Tab never reached`).toEqual([])
  return expected.length
}

/** Presses Tab (or Shift+Tab) until `target` has focus; fails if it never does. */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
  }
  await expect(target, `Tab did not reach it in ${max} presses`).toBeFocused()
}

const inside = (dialog: Locator) =>
  dialog.evaluate((d) => {
    const a = document.activeElement
    if (!a || a === document.body) return 'outside-page' // the browser's own UI, past the page
    return d.contains(a) ? 'inside' : `escaped to ${a.tagName.toLowerCase()} "${(a.textContent ?? '').trim().slice(0, 30)}"`
  })

/**
 * The opener opens the dialog with Enter; focus moves into it; Tab and Shift+Tab visit
 * every control of the dialog and never reach the page behind it (past the last one
 * they may only leave the page for the browser's own UI, as a native modal allows);
 * axe finds nothing inside it; Escape closes it and focus is back on the opener.
 */
async function checkDialog(page: Page, opener: Locator, name: string | RegExp, shot?: string) {
  await opener.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name })
  await expect(dialog).toBeVisible()
  expect(await inside(dialog)).toBe('inside')

  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await expectAccessible(page, `dialog ${name} (${size.width} px)`)
  }
  if (shot) await screenshot(page, shot)
  await page.setViewportSize(WIDTHS[0]!)

  // Each control is marked; a Tab stop that is no control (the pickup map's own
  // keyboard stop, Leaflet's) may come in between but must stay inside too.
  const controls = await dialog.evaluate(
    (d) =>
      Array.from(d.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea'))
        .filter((el) => !el.matches(':disabled') && !(el instanceof HTMLInputElement && el.type === 'radio' && !el.checked))
        .map((el, i) => el.setAttribute('data-tab-check', String(i))).length,
  )
  for (const key of ['Tab', 'Shift+Tab']) {
    const visited = new Set<string>()
    for (let i = 0; i < 2 * controls + 6; i++) {
      await page.keyboard.press(key)
      const where = await inside(dialog)
      expect(where, `${key} from inside the dialog ${name}`).not.toMatch(/^escaped/)
      const mark = await page.evaluate(() => document.activeElement?.getAttribute('data-tab-check'))
      if (where === 'inside' && mark != null) visited.add(mark)
    }
    expect(visited.size, `${key} visits every control of the dialog ${name}`).toBe(controls)
  }

  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(opener).toBeFocused()
}

/** Opens `path`, waits until `ready` shows, then checks the screen: axe, and every control reached with Tab. */
async function checkRoute(page: Page, path: string, ready: Locator, name: string) {
  await page.goto(path)
  await expect(ready).toBeVisible()
  await checkScreen(page, name)
  await expectEveryControlReachable(page, name)
}

/** An unknown address shows 'Page not found', and that screen passes too. */
async function checkNotFound(page: Page, who: string) {
  await page.goto('/no-such-page')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
  await checkScreen(page, `not found (${who})`)
}

test('signed out: home, about, sign in, register and an unknown address', async ({ page }) => {
  // axe on every screen is CPU-bound in Chromium: 42 s on a quiet 2-core machine, 102 s
  // in CI beside other work. A ceiling for a hung test, not a wait.
  test.setTimeout(180_000)
  await checkRoute(page, '/', page.getByText(/^\d+ of \d+ ambulances are currently available$/), 'home (signed out)')

  await checkRoute(page, '/about', page.getByText('Project Under Development'), 'about (signed out)')

  await page.goto('/login')
  await checkScreen(page, 'login')
  await expectEveryControlReachable(page, 'login')
  // With its error shown.
  await page.getByLabel('Username').fill('demo')
  await page.getByLabel('Password', { exact: true }).fill('not-the-password')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password')
  await checkScreen(page, 'login with an error')

  await page.goto('/register')
  await checkScreen(page, 'register')
  await expectEveryControlReachable(page, 'register')
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page.getByRole('alert')).toHaveText('Please fill in all fields.')
  await checkScreen(page, 'register with an error')

  await checkNotFound(page, 'signed out')

  // A family's tracking link that does not work (unknown, expired or stopped: one screen).
  await page.goto('/t/not-a-real-link')
  await expect(page.getByRole('heading', { name: 'This tracking link does not work' })).toBeVisible()
  await checkScreen(page, 'shared trip, link not working')
})

test('as a user: every screen, the booking dialog and the cancel dialog', async ({ page }) => {
  // 1.9 to 2.2 min on a quiet 2-core machine; over 3 min in CI beside other work.
  test.setTimeout(360_000)
  await signIn(page, 'demo')
  await expect(page.getByText('Member since')).toBeVisible()
  await checkScreen(page, 'profile (user)')
  await expectEveryControlReachable(page, 'profile (user)')
  // Deleting the account asks for the password in a dialog (decision 0022): opened and closed.
  await checkDialog(page, page.getByRole('button', { name: 'Delete my account' }), 'Delete your account?')
  await page.getByRole('button', { name: 'Edit Profile' }).click()
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible()
  await checkScreen(page, 'profile editing (user)')

  await page.goto('/')
  await expect(page.getByText(/^\d+ of \d+ ambulances are currently available$/)).toBeVisible()
  await checkScreen(page, 'home (user)')

  // One tap to help: the emergency screen with the phone's position, before
  // anything is sent (holding the button would dispatch a real ambulance of the seed).
  await page.context().grantPermissions(['geolocation'])
  await page.context().setGeolocation({ latitude: 30.67, longitude: 74.33, accuracy: 10 })
  await checkRoute(page, '/emergency', page.getByText(/^Pickup: your current location/), 'emergency (user)')
  // A screen reader's click (no press): the second, ordinary button.
  await page.getByRole('button', { name: 'Hold to send an ambulance' }).evaluate((b) => b.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 })))
  await expect(page.getByRole('button', { name: 'Yes, send an ambulance now' })).toBeFocused()
  await checkScreen(page, 'emergency, confirm step (user)')
  await page.getByRole('button', { name: 'Not now' }).click()

  await page.goto('/about')
  await checkScreen(page, 'about (user)')

  // The mobile menu, open.
  await page.setViewportSize(WIDTHS[1]!)
  await page.getByRole('button', { name: 'Open menu' }).click()
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible()
  await expectAccessible(page, 'mobile menu (user)')
  await expectEveryControlReachable(page, 'mobile menu (user)')
  await page.setViewportSize(WIDTHS[0]!)

  // The account menu, open.
  await page.getByRole('button', { name: /account menu$/ }).click()
  await expect(page.getByRole('menu', { name: 'Account' })).toBeVisible()
  await expectAccessible(page, 'account menu (user)')
  await page.keyboard.press('Escape')

  await page.goto('/hospitals/nearest')
  await expect(page).toHaveURL(/lat=30\.67&lng=74\.33/)
  await expect(page.getByRole('region', { name: 'Map of the nearest hospitals' })).toBeVisible()
  await expect(page.getByText('Map tiles could not be loaded; the hospitals are still marked.')).toBeVisible()
  await checkScreen(page, 'nearest hospitals')
  await expectEveryControlReachable(page, 'nearest hospitals')

  // A hospital with an ambulance to book, nearest first.
  const hrefs = await page.getByRole('link', { name: 'View Ambulances' }).evaluateAll((as) => as.map((a) => a.getAttribute('href')!))
  let book: Locator | undefined
  for (const href of hrefs) {
    await page.goto(href)
    await expect(page.getByText('Total Ambulances')).toBeVisible()
    book = page.getByRole('button', { name: /^Book Now/ }).first()
    if ((await book.count()) > 0) break
  }
  expect(book && (await book.count())).toBeTruthy()
  await checkScreen(page, 'hospital ambulances')
  await expectEveryControlReachable(page, 'hospital ambulances')
  const number = (await book!.getAttribute('aria-label'))!.replace('Book Now: ambulance ', '')
  await checkDialog(page, book!, `Book Ambulance ${number}`, 'a11y-booking-dialog')

  // The dialog's validation message, then a real booking, so the history has a row.
  await book!.click()
  const dialog = page.getByRole('dialog', { name: `Book Ambulance ${number}` })
  await dialog.getByRole('button', { name: 'Book Ambulance' }).click()
  await expect(dialog.getByText('Please fill in all required fields.')).toBeVisible()
  await expectAccessible(page, 'booking dialog with errors')
  await fillPatient(dialog, { name: 'A11y Patient', age: '40', gender: 'Male', condition: 'Checked by axe' })
  await dialog.getByRole('button', { name: 'Book Ambulance' }).click()
  await expect(dialog.getByText('Ambulance booked successfully!')).toBeVisible()
  await expectAccessible(page, 'booking dialog after booking')
  await expect(page).toHaveURL(/\/history$/)

  const row = page.getByRole('row').filter({ hasText: 'A11y Patient' }).first()
  await expect(row.getByText('PENDING')).toBeVisible()
  await checkScreen(page, 'history')
  await expectEveryControlReachable(page, 'history')
  const cancel = row.getByRole('button', { name: /^Cancel booking/ })
  await checkDialog(page, cancel, 'Cancel Booking', 'a11y-cancel-dialog')
  // Cancel it for real: the ambulance is free again for the other tests.
  await cancel.click()
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel Booking' }).click()
  await expect(page.getByText('Booking cancelled.')).toBeVisible()
  await checkScreen(page, 'history after cancelling')

  for (const path of ['/book-ambulance', '/booking']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { name: 'Book an Ambulance' })).toBeVisible()
    await checkScreen(page, `booking form ${path}`)
  }
  await expectEveryControlReachable(page, 'booking form')
  await page.getByRole('button', { name: 'Book Ambulance' }).click()
  await expect(page.getByText('Please fill in all required fields.')).toBeVisible()
  await checkScreen(page, 'booking form with errors')

  await checkNotFound(page, 'user')
})

type Pick = { hospitalId: number; ambulanceId: number }

/** Signs in through the API: the account's id and the headers that carry its token. */
async function signInByApi(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/api/auth/login', { data: { username, password } })
  expect(res.status(), `sign-in of ${username}`).toBe(200)
  const auth = (await res.json()) as { id: number; token: string }
  return { id: auth.id, headers: { Authorization: `Bearer ${auth.token}` } }
}

/**
 * An open booking of the demo user, made through the API (the admin screens and the
 * crew's job need one): of `pick`'s ambulance, or of any available one near the user.
 */
async function openBooking(request: APIRequestContext, pick?: Pick) {
  const { id, headers } = await signInByApi(request, 'demo', 'demo12345')
  const target = pick ?? (await availableNear(request, headers))
  const res = await request.post(`/api/booking/book?userId=${id}`, {
    headers: { ...headers, 'Idempotency-Key': `a11y-${Date.now()}-${Math.random()}` },
    data: { ...target, bookingType: 'NORMAL', patient: { name: 'A11y Admin View', age: 30, gender: 'Other', condition: 'Checked by axe' } },
  })
  expect(res.status()).toBe(201)
  const booking = (await res.json()) as { id: number }
  return { cancel: () => request.patch(`/api/booking/cancel?bookingId=${booking.id}`, { headers }) }
}

async function availableNear(request: APIRequestContext, headers: Record<string, string>): Promise<Pick> {
  const near = (await (await request.get('/api/hospitals/nearest?lat=30.67&lng=74.33&limit=20', { headers })).json()) as { id: number }[]
  for (const h of near) {
    const [a] = (await (await request.get(`/api/ambulances/available?hospitalId=${h.id}`, { headers })).json()) as { id: number }[]
    if (a) return { hospitalId: h.id, ambulanceId: a.id }
  }
  throw new Error('no available ambulance near the demo user')
}

/** The ambulance a crew account drives (its own `GET /api/crew/me`). */
async function crewAmbulance(request: APIRequestContext, username: string): Promise<Pick> {
  const { headers } = await signInByApi(request, username, 'crew12345')
  const me = (await (await request.get('/api/crew/me', { headers })).json()) as { ambulance: { id: number; hospitalId: number } }
  return { hospitalId: me.ambulance.hospitalId, ambulanceId: me.ambulance.id }
}

test('as an admin: dashboard, hospitals, ambulances, bookings and their dialogs', async ({ page, request }) => {
  test.setTimeout(300_000)
  const booking = await openBooking(request)
  try {
    await adminScreens(page)
  } finally {
    expect((await booking.cancel()).ok()).toBe(true)
  }
})

async function adminScreens(page: Page) {
  await signIn(page, 'admin')
  await expect(page.getByRole('region', { name: 'Account details' })).toBeVisible()
  await checkScreen(page, 'profile (admin)')

  await checkRoute(page, '/admin', page.getByText('Registered Users'), 'admin dashboard')

  await checkRoute(page, '/admin/hospitals', page.getByRole('button', { name: /^Remove / }).first(), 'admin hospitals')
  await checkDialog(page, page.getByRole('button', { name: /^Remove / }).first(), 'Confirm Removal', 'a11y-remove-hospital-dialog')
  await page.getByRole('button', { name: 'Add Hospital' }).click()
  await page.getByRole('form', { name: 'Add hospital' }).getByRole('button', { name: 'Add Hospital' }).click()
  await expect(page.getByText('Please fill in all required fields.')).toBeVisible()
  await checkScreen(page, 'admin hospitals, add form with errors')

  await checkRoute(page, '/admin/ambulances', page.getByRole('button', { name: /^Remove ambulance/ }).first(), 'admin ambulances')
  await checkDialog(page, page.getByRole('button', { name: /^Remove ambulance/ }).first(), 'Confirm Removal', 'a11y-remove-ambulance-dialog')
  await page.getByRole('button', { name: 'Add Ambulance' }).click()
  await page.getByRole('form', { name: 'Add ambulance' }).getByRole('button', { name: 'Add Ambulance' }).click()
  await expect(page.getByText('Please fill in all required fields.')).toBeVisible()
  await checkScreen(page, 'admin ambulances, add form with errors')
  await page.getByLabel('Search ambulances').fill('no such ambulance at all')
  await expect(page.getByText('No Ambulances Found')).toBeVisible()
  await checkScreen(page, 'admin ambulances, nothing found')

  await checkRoute(page, '/admin/bookings', page.getByRole('button', { name: /^View booking/ }).first(), 'admin bookings')
  await checkDialog(page, page.getByRole('button', { name: /^View booking/ }).first(), /^Booking #\d+$/, 'a11y-booking-details-dialog')

  await page.goto('/')
  await checkScreen(page, 'home (admin)')
  await checkNotFound(page, 'admin')
}

test('as an admin: the settings, with an error, and the audit trail', async ({ page }) => {
  test.setTimeout(180_000)
  await signIn(page, 'admin')
  await checkRoute(page, '/admin/settings', page.getByLabel('Emergency answer window'), 'admin settings')
  // A setting no rule reads yet, one minute more: a record on the trail.
  const target = page.getByLabel('Pickup target')
  const minutes = Number(await target.inputValue())
  await target.fill(String(minutes >= 240 ? 1 : minutes + 1))
  const moves = page.getByLabel('Automatic moves of an unanswered emergency')
  const movesWas = await moves.inputValue()
  await moves.fill('')
  await page.getByRole('button', { name: 'Save Settings' }).click()
  await expect(page.getByText('Enter a whole number.')).toBeVisible()
  await checkScreen(page, 'admin settings with an error')
  await moves.fill(movesWas)
  await page.getByRole('button', { name: 'Save Settings' }).click()
  await expect(page.getByText(/^Settings saved/)).toBeVisible()
  await checkRoute(page, '/admin/audit', page.getByRole('table', { name: 'Audit records, newest first' }), 'admin audit')
})

test('as a crew member: the crew screen between jobs and with a new job', async ({ browser, request }) => {
  test.setTimeout(180_000)
  // Signed in on a phone that shares its position, as a crew works.
  const crew = await crewWithAFreeAmbulance(browser, { latitude: 30.72, longitude: 74.4 })
  await expect(crew.page.getByText('Sharing your location')).toBeVisible()
  await checkScreen(crew.page, 'crew, between jobs')
  await expectEveryControlReachable(crew.page, 'crew, between jobs')

  const booking = await openBooking(request, await crewAmbulance(request, crew.username))
  try {
    // The job reaches the screen by itself (polled): patient, pickup, map, Accept job.
    await expect(crew.page.getByRole('heading', { name: /^Current job #\d+$/ })).toBeVisible({ timeout: 20_000 })
    await expect(crew.page.getByRole('button', { name: 'Accept job' })).toBeVisible()
    await checkScreen(crew.page, 'crew, a new job')
    await expectEveryControlReachable(crew.page, 'crew, a new job')
  } finally {
    expect((await booking.cancel()).ok()).toBe(true)
    await crew.page.context().close()
  }
})

test('as hospital staff: the incoming board with a trip coming, open and on diversion', async ({ page, request }) => {
  test.setTimeout(180_000)
  // A trip to a hospital, and a staff account of that hospital made by an admin.
  const { headers: demo } = await signInByApi(request, 'demo', 'demo12345')
  const pick = await availableNear(request, demo)
  const booking = await openBooking(request, pick)
  try {
    const { headers } = await signInByApi(request, 'admin', 'admin12345')
    const username = `a11y_er_${Date.now().toString(36)}`
    const made = await request.post('/api/admin/hospital-staff', {
      headers,
      data: { username, email: `${username}@example.com`, password: 'staff-secret-1', phoneNumber: '+91 98140 00102', hospitalId: pick.hospitalId },
    })
    expect(made.status(), await made.text()).toBe(201)
    await signIn(page, username, 'staff-secret-1', { path: '/hospital' })
    await checkRoute(page, '/hospital', page.getByRole('region', { name: /^On the way/ }).getByRole('article').first(), 'the incoming board')
    // On diversion: the panel turns amber, and says until when.
    const diversion = page.getByRole('region', { name: 'Diversion' })
    await diversion.getByRole('button', { name: 'For 1 hour' }).click()
    await expect(diversion.getByRole('button', { name: 'End diversion' })).toBeVisible()
    await checkScreen(page, 'the incoming board, on diversion')
    await expectEveryControlReachable(page, 'the incoming board, on diversion')
    await diversion.getByRole('button', { name: 'End diversion' }).click()
    await expect(diversion.getByRole('button', { name: 'For 1 hour' })).toBeVisible()
  } finally {
    expect((await booking.cancel()).ok()).toBe(true)
  }
})

test('keyboard only: sign in and book an ambulance without the mouse', async ({ page }) => {
  test.setTimeout(120_000)
  const patient = `Keyboard ${Date.now().toString(36)}`
  await page.goto('/')
  await expect(page.getByText(/^\d+ of \d+ ambulances are currently available$/)).toBeVisible()

  // The skip link comes first and moves focus past the top bar.
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()

  const nav = page.getByRole('navigation', { name: 'Main' })
  await tabTo(page, nav.getByRole('link', { name: 'Login' }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/login$/)
  await tabTo(page, page.getByLabel('Username'))
  await page.keyboard.type('demo')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused()
  await page.keyboard.type('demo12345')
  // Show/hide is a real button on the way; Space toggles it and back.
  await page.keyboard.press('Tab')
  const reveal = page.getByRole('button', { name: /^(Show|Hide) password$/ })
  await expect(reveal).toBeFocused()
  await page.keyboard.press('Space')
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text')
  await expect(reveal).toHaveAccessibleName('Hide password')
  await page.keyboard.press('Space')
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'password')
  await tabTo(page, page.getByRole('button', { name: 'Sign In' }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/profile$/)

  // To the booking form through the top bar.
  await tabTo(page, nav.getByRole('link', { name: 'Book Ambulance' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Book an Ambulance' })).toBeVisible()
  const hospital = page.getByLabel('Hospital', { exact: true })
  const ambulance = page.getByLabel('Available Ambulance')
  await expect(hospital).toBeEnabled()
  await tabTo(page, hospital)

  // The nearest hospital with an available ambulance: arrows move through the list.
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('ArrowDown')
    await expect(ambulance).toBeEnabled()
    await expect(ambulance.locator('option').first()).not.toHaveText('Loading ambulances...')
    if ((await ambulance.locator('option').count()) > 1) break
  }
  expect(await ambulance.locator('option').count()).toBeGreaterThan(1)
  await page.keyboard.press('Tab')
  await expect(ambulance).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(ambulance).not.toHaveValue('')

  // Booking type: Tab lands on the checked radio, an arrow picks Emergency.
  await page.keyboard.press('Tab')
  await expect(page.getByRole('radio', { name: /Normal/ })).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('radio', { name: /Emergency/ })).toBeChecked()
  await expect(page.getByRole('radio', { name: /Emergency/ })).toBeFocused()

  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Patient Name')).toBeFocused()
  await page.keyboard.type(patient)
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Age', { exact: true })).toBeFocused()
  await page.keyboard.type('63')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Gender')).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByLabel('Gender')).toHaveValue('Male')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Medical Condition')).toBeFocused()
  await page.keyboard.type('Chest pain, booked with the keyboard')
  // The pickup (prefilled from the profile: its map, pin and landmark) comes before the button.
  const submit = page.getByRole('button', { name: 'Book Emergency Ambulance' })
  await tabTo(page, submit)
  await page.keyboard.press('Enter')
  await expect(page.getByText('Ambulance booked successfully!')).toBeVisible()
  await expect(page).toHaveURL(/\/history$/)
  const row = page.getByRole('row').filter({ hasText: patient })
  await expect(row.getByText('PENDING')).toBeVisible()
  await expect(row.getByText('Emergency')).toBeVisible()

  // And cancels it the same way: the dialog opens on Enter, Tab reaches its confirm button.
  const cancel = row.getByRole('button', { name: /^Cancel booking/ })
  await tabTo(page, cancel)
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Cancel Booking' })
  await expect(dialog).toBeVisible()
  await tabTo(page, dialog.getByRole('button', { name: 'Cancel Booking' }), { max: 5 })
  await page.keyboard.press('Enter')
  await expect(page.getByText('Booking cancelled.')).toBeVisible()
  await expect(row.getByText('CANCELLED')).toBeVisible()
})
