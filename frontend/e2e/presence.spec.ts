import { expect, request, test } from '@playwright/test'
import { contextPage, crewWithAFreeAmbulance, hold, leaveFree, signIn, PHONE, register, screenshot, uniqueName } from './support'

// Every emergency goes to a crew that will answer (decision 0020), against the real stack
// on three phones and a dispatcher's computer: a crewless ambulance stands nearest to the
// pickup (300 m), a crew with its app open a little farther (600 m). The emergency goes to
// the crew, whose help starts sooner (its drive plus 15 s, against the crewless one's
// drive plus two minutes); the requester's and the family's pages say "Waiting for the
// crew to accept" until the crew accepts, and "on its way" only then; the dispatcher sees
// who is online and has nobody to phone. No deadline is waited for.

// East of the demo city's centre, away from the other specs' places and 13 km from the
// crews' hospital (their first report is taken at once).
const PICKUP = { latitude: 30.62, longitude: 74.46 }
const km = (n: number) => n / 111.2
const CREWLESS_AT = { latitude: PICKUP.latitude - km(0.3), longitude: PICKUP.longitude }
const CREW_AT = { latitude: PICKUP.latitude + km(0.6), longitude: PICKUP.longitude }

/** What the test made or holds, given back after it whether it passed or not. */
let held: { bookingId?: number; ambulances: string[] } = { ambulances: [] }
let made: { hospitalId?: number; ambulanceId?: number } = {}

/** The admin's API, signed in. */
async function adminApi(baseURL: string) {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } })
  const login = await api.post('/api/auth/login', { data: { username: 'admin', password: 'admin12345' } })
  expect(login.ok(), `admin login: ${login.status()}`).toBeTruthy()
  return { api, headers: { Authorization: `Bearer ${(await login.json()).token}` } }
}

test.beforeEach(() => {
  held = { ambulances: [] }
  made = {}
})
test.afterEach(async ({ baseURL }) => {
  await leaveFree(baseURL!, held)
  const { api, headers } = await adminApi(baseURL!)
  try {
    if (made.ambulanceId) await api.delete(`/api/admin/ambulances/remove?ambulanceId=${made.ambulanceId}`, { headers })
    if (made.hospitalId) await api.delete(`/api/admin/hospitals/remove?hospitalId=${made.hospitalId}`, { headers })
  } finally {
    await api.dispose()
  }
})

test('a crew a little farther, with its app open, gets the emergency over a crewless ambulance next door', async ({ browser, baseURL }) => {
  test.setTimeout(180_000)
  // A station with one crewless ambulance, the nearest to the pickup.
  const { api, headers } = await adminApi(baseURL!)
  const station = `E2E Station ${Date.now().toString(36)}`
  const hospital = await api.post('/api/admin/hospitals/add', {
    headers,
    data: { name: station, address: '1 Canal Road', latitude: CREWLESS_AT.latitude, longitude: CREWLESS_AT.longitude, contactInfo: '+911610000000' },
  })
  expect(hospital.status()).toBe(201)
  made.hospitalId = (await hospital.json()).id
  const crewless = `NOCREW-${Date.now().toString(36).toUpperCase()}`
  const ambulance = await api.post('/api/admin/ambulances/add', {
    headers,
    data: { number: crewless, status: 'AVAILABLE', hospital: { id: made.hospitalId } },
  })
  expect(ambulance.status()).toBe(201)
  made.ambulanceId = (await ambulance.json()).id
  await api.dispose()

  // Phone 1: a crew, its app open (heartbeats, position shared) 600 m from the pickup.
  const crew = await crewWithAFreeAmbulance(browser, CREW_AT)
  held.ambulances = [crew.number, crewless]

  // The dispatcher's computer: both on the live map's list, with their presence.
  const admin = await contextPage(browser, { viewport: { width: 1280, height: 800 } })
  await signIn(admin, 'admin')
  await admin.goto('/admin/live')
  const ambulances = admin.getByRole('region', { name: /^Ambulances in view/ })
  await expect(ambulances.getByRole('row').filter({ hasText: crewless })).toContainText('No crew', { timeout: 30_000 })
  await expect(ambulances.getByRole('row').filter({ hasText: crew.number })).toContainText('Crew online')
  await admin.getByRole('combobox', { name: 'Crew' }).selectOption('Crew online')
  await expect(ambulances.getByRole('row').filter({ hasText: crewless })).toHaveCount(0)
  await screenshot(admin, 'presence-dispatcher')
  await admin.getByRole('combobox', { name: 'Crew' }).selectOption('All crews')

  // Phone 2: the requester, at the pickup: two taps.
  const user = await contextPage(browser, { viewport: PHONE, geolocation: PICKUP, permissions: ['geolocation', 'clipboard-read', 'clipboard-write'] })
  const username = uniqueName('presence')
  await user.goto('/register')
  await register(user, { username, password: 'e2e-secret-1', phone: '+15550127' })
  await signIn(user, username, 'e2e-secret-1')
  await user.goto('/emergency')
  await hold(user)
  await expect(user).toHaveURL(/\/bookings\/\d+$/)
  const bookingId = Number(new URL(user.url()).pathname.split('/').pop())
  held.bookingId = bookingId
  // The crew's ambulance, not the crewless one 300 m nearer.
  await expect(user.getByRole('heading', { name: `Ambulance ${crew.number}` })).toBeVisible()
  await expect(user.getByTestId('accept-wait')).toHaveText(/^Waiting for the crew to accept \(\d+ s left\)$/)
  await expect(user.getByText(/on its way/)).toHaveCount(0)
  await screenshot(user, 'presence-requester-waiting', { phone: true })

  // Phone 3: the family's link, signed out: waiting too.
  await user.getByRole('button', { name: 'Share tracking' }).click()
  await expect(user.getByText(/^Link (copied|shared)\.$/)).toBeVisible()
  const link = await user.getByLabel('Tracking link').inputValue()
  const family = await contextPage(browser, { viewport: PHONE })
  await family.goto(link)
  await expect(family.getByRole('heading', { name: 'Waiting for the crew to accept' })).toBeVisible()
  await screenshot(family, 'presence-family-waiting', { phone: true })

  // The job is on the crew's phone; nobody had to be phoned.
  await expect(crew.page.getByRole('heading', { name: `Current job #${bookingId}` })).toBeVisible({ timeout: 20_000 })
  await screenshot(crew.page, 'presence-crew-job', { phone: true })
  const alerts = admin.getByRole('region', { name: /^Alerts/ })
  await expect(alerts.getByRole('listitem').filter({ hasText: `Booking #${bookingId}` })).toHaveCount(0)

  // The crew accepts: now, and only now, "on its way", on both pages.
  await crew.page.getByRole('button', { name: 'Accept job' }).click()
  await expect(crew.page.getByRole('button', { name: 'Arrived at pickup' })).toBeVisible()
  await expect(user.getByText('The crew accepted: the ambulance is on its way.')).toBeVisible({ timeout: 20_000 })
  await expect(user.getByTestId('accept-wait')).toHaveCount(0)
  await expect(family.getByRole('heading', { name: 'Ambulance on its way' })).toBeVisible({ timeout: 20_000 })
  await screenshot(user, 'presence-requester-accepted', { phone: true })
  await screenshot(family, 'presence-family-accepted', { phone: true })
  await screenshot(admin, 'presence-dispatcher-after')

  // The requester cancels: the crew is free for the other specs.
  await user.getByRole('button', { name: 'Cancel booking' }).click()
  await user.getByRole('dialog').getByRole('button', { name: 'Cancel booking' }).click()
  await expect(crew.page.getByText('No job right now')).toBeVisible({ timeout: 30_000 })
  for (const page of [crew.page, user, family, admin]) await page.context().close()
})
