import { type Locator, type Page } from '@playwright/test'
import { contextPage, crewWithAFreeAmbulance, expect, fillPatient, newUser, PHONE, screenshot, test } from './support'

// One tap to help against the real stack, on phones: a signed-in user gets
// the nearest free ambulance dispatched in 2 taps from the home page and follows it on
// the map; the family opens the shared link in another browser and sees the same stage
// and ETA; the crew (a third phone, its position shared) advances the trip and both
// pages follow; offline, each page keeps the last state with its age and the call
// button. Last, a pickup with no free ambulance within 50 km gets the 3 nearest hospitals.

// South-west of the demo city's centre, away from where dispatch.spec.ts drives: the
// crew waits 2.3 km north-west of the pickup, so its fresh position is the nearest free
// ambulance (an ambulance without one counts from its hospital, none of which is that close).
const CREW_AT = { latitude: 30.612, longitude: 74.2 }
const PICKUP = { latitude: 30.6, longitude: 74.22 }
// Between Bathinda's hospitals (up to 60 km out) and Ludhiana's: no ambulance within
// 50 km, hospitals within 200 km.
const NOWHERE = { latitude: 30.1, longitude: 75.5 }

/**
 * Offline, a trip page keeps the last stage it knew and says how old it is, the ETA card
 * no longer calls the position live, and the banner's call button dials.
 */
async function expectLastKnown(page: Page) {
  await expect(page.getByText(/^You are offline\./)).toBeVisible()
  await expect(page.getByText(/^Offline, last updated \d+ (s|min) ago\./)).toBeVisible({ timeout: 10_000 })
  await expect(page.getByRole('heading', { level: 1 }).locator('xpath=following-sibling::p[1]')).toHaveText(/^On the way to the hospital · /)
  await expect(page.getByRole('status').getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911')
  // The ETA card keeps the position's age but no longer calls it live.
  const eta = page.getByRole('region', { name: /^Reaching the hospital in/ })
  await expect(eta).toContainText(/About \d+ (h|min)|Less than a minute/)
  await expect(eta).toContainText(/Last known · updated \d+ (s|min) ago|Last known position, /)
  await expect(eta).not.toContainText('Live')
}

/** The trip queries the device keeps (app/persist.ts's localStorage entry), as their keys. */
function persistedTrips(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('ambucare-trips') ?? 'null') as { clientState: { queries: { queryKey: unknown[] }[] } } | null
    return (stored?.clientState.queries ?? []).map((q) => JSON.stringify(q.queryKey))
  })
}

/** Every tap the person makes, counted by the test. */
class Taps {
  count = 0

  constructor(private readonly page: Page) {}

  async tap(target: Locator) {
    this.count++
    await target.click()
  }

  /** A press held for `ms` (the button fills for 1.5 s), one tap. */
  async hold(target: Locator, ms = 1800) {
    this.count++
    const box = (await target.boundingBox())!
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await this.page.mouse.down()
    await this.page.waitForTimeout(ms)
    await this.page.mouse.up()
  }
}

/** The stage (the subtitle's words before " · ") and the ETA ("About 4 min") a trip page shows. */
async function stageAndEta(page: Page) {
  const subtitle = await page.getByRole('heading', { level: 1 }).locator('xpath=following-sibling::p[1]').innerText()
  const eta = await page.getByRole('region', { name: /^Arriving at the pickup in|^Once the crew accepts, at the pickup in|^Reaching the hospital in/ }).innerText()
  return { stage: subtitle.split(' · ')[0]!.trim(), eta: eta.match(/About \d+ (h|min)( \d+ min)?|Less than a minute/)?.[0] ?? null }
}

/** Both pages show `stage`, and then the same stage and ETA as each other. */
async function expectSameTrip(owner: Page, family: Page, stage: string) {
  for (const page of [owner, family]) {
    await expect(page.getByRole('heading', { level: 1 }).locator('xpath=following-sibling::p[1]')).toHaveText(new RegExp(`^${stage} · `), {
      timeout: 20_000,
    })
  }
  // Each page polls every 5 s: they agree once both have asked since the last change.
  await expect(async () => {
    const [a, b] = [await stageAndEta(owner), await stageAndEta(family)]
    expect(a.eta).not.toBeNull()
    expect(b).toEqual(a)
  }).toPass({ timeout: 20_000 })
}

test('one tap to help: 2 taps to an ambulance, the family follows the same trip, the crew drives it, offline keeps the last state', async ({
  browser,
}) => {
  test.setTimeout(300_000)
  const crew = await crewWithAFreeAmbulance(browser, CREW_AT)
  // Its position has reached the server: it is fresh for 2 minutes.
  await expect(crew.page.getByText('Sharing your location')).toBeVisible()

  // A new user (no earlier emergency of theirs is open), signed in on a phone whose position the site may read.
  const user = await contextPage(browser, { viewport: PHONE, geolocation: PICKUP, permissions: ['geolocation', 'clipboard-read', 'clipboard-write'] })
  const username = await newUser(user, { prefix: 'sos', phone: '+15550124', path: '/' })

  // From the home page: the big button, then the hold.
  const taps = new Taps(user)
  await taps.tap(user.getByRole('main').getByRole('link', { name: 'Send an ambulance' }))
  await expect(user).toHaveURL(/\/emergency$/)
  await expect(user.getByText(/^Pickup: your current location/)).toBeVisible()
  await expect(user.getByRole('link', { name: 'Call 911' }).first()).toBeVisible()
  await screenshot(user, 'emergency-send', { phone: true })
  await taps.hold(user.getByRole('button', { name: 'Hold to send an ambulance' }))

  await expect(user).toHaveURL(/\/bookings\/\d+$/)
  await expect(user.getByText('Request sent: an ambulance is assigned to you.')).toBeVisible()
  expect(taps.count, 'taps from the home page to "ambulance dispatched"').toBe(2)
  // Nobody has accepted yet: never "on its way" before the crew does (decision 0020).
  await expect(user.getByText(/^Waiting for the crew to accept \(\d+ s left\)$/)).toBeVisible()
  const bookingId = Number(new URL(user.url()).pathname.split('/').pop())
  // The nearest free ambulance is the crew's, and it is on the map, live.
  await expect(user.getByRole('heading', { name: `Ambulance ${crew.number}` })).toBeVisible()
  const map = user.getByRole('region', { name: 'Map of the ambulance, the pickup and the hospital' })
  await expect(map.locator(`.leaflet-marker-icon[title="Ambulance ${crew.number}"]`)).toBeVisible()
  await expect(map.locator('.leaflet-marker-icon[title="Pickup"]')).toBeVisible()
  await expect(user.getByText(/Live · updated/)).toBeVisible()
  await expect(user.getByText('Once the crew accepts, at the pickup in')).toBeVisible()
  await screenshot(user, 'emergency-dispatched', { phone: true })

  // The crew's phone shows the job by itself (polled), with no admin in between; the
  // patient's details follow it there when the requester sends them.
  await expect(crew.page.getByRole('heading', { name: `Current job #${bookingId}` })).toBeVisible({ timeout: 20_000 })
  await expect(crew.page.getByText(/^No details yet/)).toBeVisible()
  const details = user.getByRole('region', { name: /^Patient details/ })
  const patient = `SOS Patient ${Date.now().toString(36)}`
  await fillPatient(details, { name: patient, age: '64', gender: 'Female', condition: 'Short of breath' })
  await details.getByRole('button', { name: 'Send to the crew' }).click()
  await expect(details.getByText('Patient details sent to the crew.')).toBeVisible()
  await expect(crew.page.getByText(patient)).toBeVisible({ timeout: 20_000 })
  await expect(crew.page.getByText('Short of breath')).toBeVisible()

  // The family's link: made on the booking page, opened in a browser of its own, signed out.
  await user.getByRole('button', { name: 'Share tracking' }).click()
  await expect(user.getByText(/^Link (copied|shared)\.$/)).toBeVisible()
  const link = await user.getByLabel('Tracking link').inputValue()
  expect(await user.evaluate(() => navigator.clipboard.readText().catch(() => null))).toBe(link)
  expect(link).toMatch(/\/t\/[A-Za-z0-9_-]{22,}$/)
  const family = await contextPage(browser, { viewport: PHONE })
  await family.goto(link)
  await expect(family.getByRole('heading', { name: 'Waiting for the crew to accept' })).toBeVisible()
  await expect(family.getByRole('region', { name: 'Map of the ambulance and the destination hospital' }).locator(`.leaflet-marker-icon[title="Ambulance ${crew.number}"]`)).toBeVisible()
  await expectSameTrip(user, family, 'Ambulance assigned')
  // Nothing about the patient, the pickup or the requester.
  await expect(family.getByText(username)).toHaveCount(0)
  await expect(family.getByText(patient)).toHaveCount(0)
  await expect(family.locator('.leaflet-marker-icon[title="Pickup"]')).toHaveCount(0)
  await screenshot(family, 'emergency-shared', { phone: true })

  // The crew accepts and drives; both pages follow, and only now say "on its way".
  await crew.page.getByRole('button', { name: 'Accept job' }).click()
  await expectSameTrip(user, family, 'On the way to the pickup')
  await expect(user.getByText('The crew accepted: the ambulance is on its way.')).toBeVisible()
  await expect(family.getByRole('heading', { name: 'Ambulance on its way' })).toBeVisible()
  await screenshot(crew.page, 'emergency-crew', { phone: true })
  await crew.page.getByRole('button', { name: 'Arrived at pickup' }).click()
  for (const page of [user, family]) await expect(page.getByText('The ambulance is at the pickup.')).toBeVisible({ timeout: 20_000 })
  await crew.page.getByRole('button', { name: 'Patient on board: go to hospital' }).click()
  await expectSameTrip(user, family, 'On the way to the hospital')

  // The connection drops: each page keeps what it knew, says how old it is, and the call button stays.
  // (The service worker has the app by then: it controls the page once it has precached the build.)
  await family.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
  const offlineAt = new Map<Page, number>()
  for (const page of [user, family]) {
    offlineAt.set(page, Date.now())
    await page.context().setOffline(true)
    await expectLastKnown(page)
  }
  await screenshot(user, 'emergency-offline', { phone: true })
  await screenshot(family, 'emergency-shared-offline', { phone: true })
  // Reloaded with no connection (a killed tab, a pull to refresh): the app opens from the
  // service worker's copy and the trip from the device's (app/persist.ts), with its age.
  await user.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
  // Long enough offline that an answer fetched after the reload would look younger than this.
  await user.waitForTimeout(Math.max(0, offlineAt.get(family)! + 8000 - Date.now()))
  for (const page of [user, family]) {
    const reloadAt = Date.now()
    await page.reload()
    await expectLastKnown(page)
    // The age is the kept answer's (from before the connection dropped), not the reload's.
    const notice = await page.getByText(/^Offline, last updated/).innerText()
    const [, n, unit] = notice.match(/last updated (\d+) (s|min) ago/)!
    expect(Number(n) * (unit === 'min' ? 60 : 1), notice).toBeGreaterThanOrEqual(Math.floor((reloadAt - offlineAt.get(page)!) / 1000) - 1)
  }
  await screenshot(user, 'emergency-offline-reload', { phone: true })
  await screenshot(family, 'emergency-shared-offline-reload', { phone: true })
  for (const page of [user, family]) await page.context().setOffline(false)
  await expect(user.getByText(/^Offline, last updated/)).toHaveCount(0, { timeout: 20_000 })
  await expect(user.getByRole('region', { name: /^Reaching the hospital in/ })).toContainText(/Live · updated/, { timeout: 20_000 })
  await expect(family.getByRole('heading', { name: 'Ambulance on its way' })).toBeVisible({ timeout: 20_000 })
  await expect(family.getByRole('region', { name: /^Reaching the hospital in/ })).toContainText(/Live · updated/, { timeout: 20_000 })

  // To the hospital and done; the ambulance is free again.
  await crew.page.getByRole('button', { name: 'Arrived at hospital' }).click()
  for (const page of [user, family]) await expect(page.getByText('The ambulance has reached the hospital.')).toBeVisible({ timeout: 20_000 })
  // The crew records the handover (no hospital staff on the app here), then completes.
  await crew.page.getByRole('button', { name: 'Handover done' }).click()
  for (const page of [user, family]) await expect(page.getByText('The patient has been handed over to the hospital.')).toBeVisible({ timeout: 20_000 })
  await crew.page.getByRole('button', { name: 'Complete job' }).click()
  await expect(crew.page.getByText('No job right now')).toBeVisible()
  for (const page of [user, family]) await expect(page.getByText('This trip is completed.')).toBeVisible({ timeout: 20_000 })
  await family.context().close()
  await crew.page.context().close()

  // Far from any free ambulance: the 409 lists the 3 nearest hospitals to call, beside the call button.
  await user.context().setGeolocation(NOWHERE)
  await user.goto('/')
  await user.getByRole('main').getByRole('link', { name: 'Send an ambulance' }).click()
  await expect(user.getByText(/^Pickup: your current location/)).toBeVisible()
  await new Taps(user).hold(user.getByRole('button', { name: 'Hold to send an ambulance' }))
  const none = user.getByRole('region', { name: 'No ambulance is available near you' })
  await expect(none).toBeVisible()
  await expect(none.getByRole('listitem')).toHaveCount(3)
  await expect(none.getByRole('link', { name: /^Call \+91 / })).toHaveCount(3)
  await expect(user).toHaveURL(/\/emergency$/)
  await expect(user.getByRole('link', { name: 'Call 911' }).first()).toBeVisible()
  await screenshot(user, 'emergency-no-ambulance', { phone: true })

  // Signing out takes the trip (the patient's details, the pickup) off the phone.
  expect(await persistedTrips(user)).toContain(JSON.stringify(['bookings', 'track', bookingId]))
  await user.getByRole('button', { name: 'Open menu' }).click()
  await user.getByRole('navigation', { name: 'Mobile' }).getByRole('button', { name: 'Logout' }).click()
  await expect(user).toHaveURL(/\/login$/)
  // Past the persister's 1 s throttle: no save still to come brings it back.
  await user.waitForTimeout(1500)
  expect(await persistedTrips(user)).toEqual([])
  await user.context().close()
})
