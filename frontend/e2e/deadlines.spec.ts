import { type Browser, type Page } from '@playwright/test'
import { contextPage, crewWithAFreeAmbulance, expect, hold, leaveFree, liveViewAt, newUser, PHONE, screenshot, signIn, test } from './support'

// No dispatch waits unanswered (decision 0012), against the real stack and its clock
// (the same binary as in AWS). This spec runs in the "deadlines" group (scripts/e2e.sh):
// its stack's answer windows are seconds long (ANSWER_WINDOW_SECS, 15) and its clock
// sweeps every second, so no test waits a minute for a deadline; a crew that is to
// answer answers at once. An emergency whose crew does not answer within its window
// moves to the next nearest free ambulance; the requester's page says so, the crew that
// missed it is told how to come back, the dispatcher sees which ambulance stopped
// answering, and the second crew takes it. With nobody left to send, the dispatcher is
// alerted and reassigns by hand.

// Two crews 200 m from the pickup, away from the other specs' places.
const CREWS_AT = { latitude: 30.742, longitude: 74.28 }
const PICKUP = { latitude: 30.74, longitude: 74.28 }

/** What a test holds, given back after it whether it passed or not (leaveFree). */
let held: { bookingId?: number; ambulances: string[] } = { ambulances: [] }
test.beforeEach(() => {
  held = { ambulances: [] }
})
test.afterEach(async ({ baseURL }) => {
  await leaveFree(baseURL!, held)
})

/**
 * The crew's phone moves a few metres, and the test waits for the report to go: a
 * parked phone reports when it moves or when its heartbeat is due (in the end-to-end
 * build after 5 s and every 20 s: scripts/e2e.sh), so its position is fresh when the
 * clock or the dispatcher ranks the ambulance by it.
 */
async function freshen(crew: { page: Page }, where: { latitude: number; longitude: number }, step: number) {
  await crew.page.context().setGeolocation({ latitude: where.latitude + step * 0.0004, longitude: where.longitude })
  await expect(crew.page.getByText(/sent (\d s|1\d s|just now)/)).toBeVisible({ timeout: 30_000 })
}

/** A new user at `where` sends an emergency (2 taps); the booking is held for leaveFree. */
async function emergencyFrom(browser: Browser, where: { latitude: number; longitude: number }, phone: string) {
  const user = await contextPage(browser, { viewport: PHONE, geolocation: where, permissions: ['geolocation'] })
  await newUser(user, { prefix: 'late', phone, path: '/emergency' })
  await hold(user)
  await expect(user).toHaveURL(/\/bookings\/\d+$/)
  const bookingId = Number(new URL(user.url()).pathname.split('/').pop())
  held.bookingId = bookingId
  return { user, bookingId }
}

type Crew = Awaited<ReturnType<typeof crewWithAFreeAmbulance>>

/** Which of two crews the job went to first (the nearer one), and the other. */
async function whoHasIt(bookingId: number, one: Crew, two: Crew) {
  const job = (page: Page) => page.getByRole('heading', { name: `Current job #${bookingId}` })
  let [first, next] = [one, two]
  await expect(async () => {
    if ((await job(two.page).count()) > 0) [first, next] = [two, one]
    await expect(job(first.page)).toBeVisible({ timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  return { first, next, job }
}

test('an emergency nobody answers moves to the next ambulance, and everyone is told', async ({ browser }) => {
  test.setTimeout(180_000)
  const one = await crewWithAFreeAmbulance(browser, CREWS_AT)
  const two = await crewWithAFreeAmbulance(browser, CREWS_AT, [one.username])
  held.ambulances = [one.number, two.number]

  const { user, bookingId } = await emergencyFrom(browser, PICKUP, '+15550125')
  // One of the two crews has the job, with the time left to answer.
  const { first, next, job } = await whoHasIt(bookingId, one, two)
  await expect(first.page.getByText(/Answer within \d+:\d\d/)).toBeVisible()
  await screenshot(first.page, 'deadline-crew-countdown', { phone: true })

  // Nobody answers: when the window ends the clock sends the job on. The second crew
  // takes it at once (its window is as short), then everyone is looked at.
  await expect(job(next.page)).toBeVisible({ timeout: 60_000 })
  await next.page.getByRole('button', { name: 'Accept job' }).click()
  await expect(next.page.getByRole('button', { name: 'Arrived at pickup' })).toBeVisible()
  await expect(user.getByText(`No answer from the first ambulance: sent to ${next.number}`)).toBeVisible({ timeout: 20_000 })
  await screenshot(user, 'deadline-moved', { phone: true })
  await expect(first.page.getByText('You missed a job. Tap Available to take jobs again.')).toBeVisible({ timeout: 20_000 })
  await screenshot(first.page, 'deadline-crew-missed', { phone: true })

  // The dispatcher's live map lists the ambulance that stopped answering.
  const admin = await contextPage(browser, { viewport: { width: 1280, height: 800 } })
  await signIn(admin, 'admin', undefined, { path: '/admin/live', storage: liveViewAt(PICKUP) })
  const alerts = admin.getByRole('region', { name: /alerts/i })
  const alert = alerts.getByRole('listitem').filter({ hasText: first.number })
  await expect(alert).toBeVisible({ timeout: 20_000 })
  await expect(admin).toHaveTitle(/^\(\d+\) /)
  await screenshot(admin, 'deadline-admin-alert')

  // The first taps Available, and its alert closes by itself.
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

// Far (over 50 km) from every demo hospital: only the two crews brought here are near.
const REMOTE_CREWS = { latitude: 29.602, longitude: 73.2 }
const REMOTE_PICKUP = { latitude: 29.6, longitude: 73.2 }

test('with nobody left to send, the dispatcher is alerted with a sound, reassigns, and the alert closes', async ({ browser }) => {
  test.setTimeout(240_000)
  const one = await crewWithAFreeAmbulance(browser, REMOTE_CREWS)
  const two = await crewWithAFreeAmbulance(browser, REMOTE_CREWS, [one.username])
  held.ambulances = [one.number, two.number]

  // The dispatcher watches the live map, beeps counted (the page has had a click,
  // as browsers want before they play a sound).
  const admin = await contextPage(browser, { viewport: { width: 1280, height: 800 } })
  await admin.addInitScript(() => {
    const counted = window as unknown as { beeps: number }
    counted.beeps = 0
    const original = AudioContext.prototype.createOscillator
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      counted.beeps++
      return original.call(this)
    }
  })
  await signIn(admin, 'admin', undefined, { path: '/admin/live', storage: liveViewAt(REMOTE_PICKUP) })
  await admin.getByRole('heading', { name: 'Live Map' }).click()

  const { user, bookingId } = await emergencyFrom(browser, REMOTE_PICKUP, '+15550126')
  // The clock ranks the other crew by its live position only while that is under 2
  // minutes old (its hospital is over 50 km away): its phone's heartbeat (20 s in the
  // end-to-end build) keeps it fresh.
  const { first, next, job } = await whoHasIt(bookingId, one, two)

  // Neither crew answers: the job moves once, then nobody is left within 50 km.
  await expect(job(next.page)).toBeVisible({ timeout: 60_000 })
  await expect(user.getByText(/^Still looking for an ambulance/).first()).toBeVisible({ timeout: 60_000 })
  await screenshot(user, 'deadline-still-looking', { phone: true })

  const alerts = admin.getByRole('region', { name: /alerts/i })
  const unanswered = alerts.getByRole('listitem').filter({ hasText: `Booking #${bookingId}` }).filter({ hasText: 'No answer from the crew' })
  await expect(unanswered).toBeVisible({ timeout: 20_000 })
  expect(await admin.evaluate(() => (window as unknown as { beeps: number }).beeps)).toBeGreaterThan(0)
  await expect(admin).toHaveTitle(/^\(\d+\) /)
  await screenshot(admin, 'deadline-admin-unanswered')

  // The first crew is back; the dispatcher sends the job to it: a fresh report near the
  // pickup first, as a crew on its way back sends.
  await freshen(first, REMOTE_CREWS, 1)
  await first.page.getByRole('button', { name: 'Available' }).click()
  await expect(first.page.getByText('You missed a job. Tap Available to take jobs again.')).toHaveCount(0, { timeout: 20_000 })
  await unanswered.getByRole('button', { name: 'Reassign' }).click()
  const dialog = admin.getByRole('dialog')
  await screenshot(admin, 'deadline-admin-reassign')
  await dialog.getByRole('button', { name: new RegExp(`^Send ${first.number}: `) }).click()
  await expect(dialog).toHaveCount(0)
  // Taken at once: a job sent by hand has the same short window.
  await expect(job(first.page)).toBeVisible({ timeout: 20_000 })
  await first.page.getByRole('button', { name: 'Accept job' }).click()
  await expect(first.page.getByRole('button', { name: 'Arrived at pickup' })).toBeVisible()
  // An emergency's UNANSWERED stays open until a crew accepts (decision 0020): now it closes.
  await expect(unanswered).toHaveCount(0, { timeout: 30_000 })
  await screenshot(admin, 'deadline-admin-reassigned')
  await expect(user.getByText(/^Still looking for an ambulance/)).toHaveCount(0, { timeout: 20_000 })
  for (const page of [first.page, next.page, user, admin]) await page.context().close()
})
