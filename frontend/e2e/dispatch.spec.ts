import { type Page } from '@playwright/test'
import { contextPage, crewWithAFreeAmbulance, expect, fillPatient, liveViewAt, screenshot, signIn, test } from './support'

// Dispatch against the real stack, two people at once: a requester books, the crew of
// that ambulance (another browser, geolocation granted and moved by the test) sees the
// job appear, accepts it and drives; the requester's map and ETA follow; the crew takes
// it to completion and the ambulance is available again.

// Near the demo city's centre (the demo user's stored location is 30.67, 74.33).
const START = { latitude: 30.72, longitude: 74.4 }
// A third of a kilometre towards the pickup: what an ambulance drives between two reports
// 5 s apart. A jump of kilometres in 5 s is refused as an impossible speed (over 250 km/h).
const CLOSER = { latitude: 30.7175, longitude: 74.398 }

/** Picks the option of `select` whose text starts with `text`. */
async function selectStartingWith(page: Page, label: string, text: string) {
  const select = page.getByLabel(label)
  await expect(select.locator('option', { hasText: text }).first()).toBeAttached()
  const value = await select.locator('option', { hasText: text }).first().getAttribute('value')
  await select.selectOption(value!)
}

test('a requester books, the crew sees the job, drives it to completion, and the requester follows it live', async ({ browser }) => {
  test.setTimeout(240_000)
  const crew = await crewWithAFreeAmbulance(browser, START)
  // Between jobs: the crew's screen before the booking (a11y.spec.ts checks it; this is its picture).
  await expect(crew.page.getByRole('heading', { name: 'No job right now' })).toBeVisible()
  await screenshot(crew.page, 'dispatch-crew-idle')
  const patient = `Dispatch Patient ${Date.now().toString(36)}`

  // The requester books that ambulance from the booking form (pickup: the profile's location).
  const user = await contextPage(browser, { viewport: { width: 1280, height: 800 } })
  await signIn(user, 'demo', undefined, { path: '/book-ambulance' })
  await selectStartingWith(user, 'Hospital', crew.hospital)
  await selectStartingWith(user, 'Available Ambulance', crew.number)
  await fillPatient(user, { name: patient, age: '61', gender: 'Male', condition: 'Fell down the stairs, hip pain' })
  await user.getByRole('button', { name: 'Book Ambulance' }).click()
  await expect(user).toHaveURL(/\/history$/)
  const row = user.getByRole('row').filter({ hasText: patient })
  await expect(row).toHaveCount(1)
  const track = row.getByRole('link', { name: /^Track booking \d+$/ })
  const bookingId = Number((await track.getAttribute('aria-label'))!.replace('Track booking ', ''))
  await track.click()
  await expect(user).toHaveURL(new RegExp(`/bookings/${bookingId}$`))
  await expect(user.getByText(/^Waiting for the crew to accept \(\d+ s left\)$/)).toBeVisible()

  // The job reaches the crew's screen by itself (polled), with the patient and the pickup.
  await expect(crew.page.getByRole('heading', { name: `Current job #${bookingId}` })).toBeVisible({ timeout: 20_000 })
  await expect(crew.page.getByText(patient)).toBeVisible()
  await crew.page.getByRole('button', { name: 'Accept job' }).click()
  await expect(crew.page.getByRole('button', { name: 'Arrived at pickup' })).toBeVisible()

  // On the way: the crew's shared position shows on the requester's page with an ETA.
  await expect(user.getByText('Arriving at the pickup in')).toBeVisible({ timeout: 30_000 })
  await expect(user.getByText(/Live · updated/)).toBeVisible({ timeout: 30_000 })
  // The distance is a line of its own inside the ETA's paragraph: the innermost match.
  const away = user.getByText(/ away$/).last()
  const before = await away.innerText()
  await crew.page.context().setGeolocation(CLOSER)
  // The throttle sends a moved position at most every 5 s on a trip; the page polls every 5 s.
  await expect(away).not.toHaveText(before, { timeout: 40_000 })
  await screenshot(crew.page, 'dispatch-crew-job')
  await screenshot(user, 'dispatch-tracking')

  // The dispatcher's live map shows the ambulance on its trip and the open booking.
  const admin = await contextPage(browser, { viewport: { width: 1280, height: 800 } })
  // Opened on the area of the trip: the crew's start and the pickup (the demo user's place).
  await signIn(admin, 'admin', undefined, { path: '/admin/live', storage: liveViewAt({ latitude: 30.695, longitude: 74.365 }, 12) })
  await expect(admin.getByRole('heading', { name: 'Live Map' })).toBeVisible()
  await expect(admin.getByRole('row').filter({ hasText: `#${bookingId}` })).toHaveCount(1)
  await expect(admin.getByRole('row').filter({ hasText: crew.number }).first()).toBeVisible()
  await screenshot(admin, 'dispatch-admin-live')
  await admin.context().close()

  // The crew takes it through every stage; the requester's timeline follows.
  await crew.page.getByRole('button', { name: 'Arrived at pickup' }).click()
  await expect(user.getByText('The ambulance is at the pickup.')).toBeVisible({ timeout: 20_000 })
  await crew.page.getByRole('button', { name: 'Patient on board: go to hospital' }).click()
  await expect(user.getByText('Reaching the hospital in')).toBeVisible({ timeout: 20_000 })
  await crew.page.getByRole('button', { name: 'Arrived at hospital' }).click()
  await expect(user.getByText('The ambulance has reached the hospital.')).toBeVisible({ timeout: 20_000 })
  // The hospital has nobody on the app here: the crew records the handover, then completes.
  await crew.page.getByRole('button', { name: 'Handover done' }).click()
  await expect(user.getByText('The patient has been handed over to the hospital.')).toBeVisible({ timeout: 20_000 })
  await crew.page.getByRole('button', { name: 'Complete job' }).click()
  await expect(crew.page.getByText('Job completed. The ambulance is available again.')).toBeVisible()
  await expect(crew.page.getByText('No job right now')).toBeVisible()
  await expect(user.getByText('This trip is completed.')).toBeVisible({ timeout: 20_000 })

  // The ambulance is free again: the requester's form offers it.
  await user.goto('/book-ambulance')
  await selectStartingWith(user, 'Hospital', crew.hospital)
  await expect(user.getByLabel('Available Ambulance').locator('option', { hasText: crew.number })).toHaveCount(1)
})
