import { expect, test, type Page } from '@playwright/test'
import { contextPage, crewWithAFreeAmbulance, login, PHONE, register, screenshot, uniqueName } from './support'

// No dispatch waits unanswered (decision 0012), against the real stack and its clock
// (the same binary as in AWS, sweeping every 2 s): an emergency whose crew does not
// answer within its deadline (60 s) moves to the next nearest free ambulance; the
// requester's page says so, the crew that missed it is told how to come back, the
// dispatcher sees which ambulance stopped answering, and the second crew takes it.

// Two crews 200 m from the pickup, away from the other specs' places.
const CREWS_AT = { latitude: 30.742, longitude: 74.28 }
const PICKUP = { latitude: 30.74, longitude: 74.28 }

/** Presses and holds the emergency button (1.5 s fills it). */
async function hold(page: Page) {
  const box = (await page.getByRole('button', { name: 'Hold to send an ambulance' }).boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.waitForTimeout(1800)
  await page.mouse.up()
}

test('an emergency nobody answers moves to the next ambulance, and everyone is told', async ({ browser }) => {
  test.setTimeout(300_000)
  const one = await crewWithAFreeAmbulance(browser, CREWS_AT)
  const two = await crewWithAFreeAmbulance(browser, CREWS_AT, [one.username])

  const user = await contextPage(browser, { viewport: PHONE, geolocation: PICKUP, permissions: ['geolocation'] })
  const username = uniqueName('late')
  await user.goto('/register')
  await register(user, { username, password: 'e2e-secret-1', phone: '+15550125' })
  await login(user, username, 'e2e-secret-1')
  await user.goto('/emergency')
  await hold(user)
  await expect(user).toHaveURL(/\/bookings\/\d+$/)
  const bookingId = Number(new URL(user.url()).pathname.split('/').pop())

  // One of the two crews has the job, with the time left to answer.
  const job = (page: Page) => page.getByRole('heading', { name: `Current job #${bookingId}` })
  let first = one
  let next = two
  await expect(async () => {
    if ((await job(two.page).count()) > 0) [first, next] = [two, one]
    await expect(job(first.page)).toBeVisible({ timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  await expect(first.page.getByText(/Answer within \d+:\d\d/)).toBeVisible()
  await screenshot(first.page, 'deadline-crew-countdown', { phone: true })

  // Nobody answers: a minute later the clock sends the job on.
  await expect(user.getByText(`No answer from the first ambulance: sent to ${next.number}`)).toBeVisible({ timeout: 100_000 })
  await screenshot(user, 'deadline-moved', { phone: true })
  await expect(job(next.page)).toBeVisible({ timeout: 20_000 })
  await expect(first.page.getByText('You missed a job. Tap Available to take jobs again.')).toBeVisible({ timeout: 20_000 })
  await screenshot(first.page, 'deadline-crew-missed', { phone: true })

  // The dispatcher's live map lists the ambulance that stopped answering.
  const admin = await contextPage(browser, { viewport: { width: 1280, height: 800 } })
  await login(admin, 'admin', 'admin12345')
  await admin.goto('/admin/live')
  const alerts = admin.getByRole('region', { name: /alerts/i })
  const alert = alerts.getByRole('listitem').filter({ hasText: first.number })
  await expect(alert).toBeVisible({ timeout: 20_000 })
  await expect(admin).toHaveTitle(/^\(\d+\) /)
  await screenshot(admin, 'deadline-admin-alert')

  // The second crew takes it; the first taps Available, and its alert closes by itself.
  await next.page.getByRole('button', { name: 'Accept job' }).click()
  await expect(next.page.getByRole('button', { name: 'Arrived at pickup' })).toBeVisible()
  await first.page.getByRole('button', { name: 'Available' }).click()
  await expect(first.page.getByText('You missed a job. Tap Available to take jobs again.')).toHaveCount(0, { timeout: 20_000 })
  await expect(alert).toHaveCount(0, { timeout: 30_000 })
  await admin.context().close()

  // Leave both ambulances free for the other specs: the requester cancels.
  await user.getByRole('button', { name: 'Cancel booking' }).click()
  await user.getByRole('dialog').getByRole('button', { name: 'Cancel booking' }).click()
  await expect(next.page.getByText('No job right now')).toBeVisible({ timeout: 30_000 })
  for (const page of [first.page, next.page, user]) await page.context().close()
})
