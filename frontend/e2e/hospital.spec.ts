import { type Page } from '@playwright/test'
import { contextPage, crewWithAFreeAmbulance, expect, fillPatient, leaveFree, newUser, PHONE, screenshot, test, uniqueName } from './support'
import { expectAccessible as axeFindsNothing } from './axe'

// The receiving hospital (frontend/README.md, "The receiving hospital") against the real
// stack, with three phones and an admin: a requester sends an emergency, the crew takes
// it and drives the patient to another hospital than its own (chosen on "Change
// hospital"); an admin makes a staff account for that hospital, whose sign-in lands on
// its incoming board; the board shows the trip coming with the patient's details, the
// hospital goes on diversion and the crew is warned with the open alternative, the
// diversion ends, the ambulance arrives, the hospital records the handover and the
// crew completes the trip; the requester's timeline shows the destination and the
// handover. axe runs on the board, and it is photographed at 390 and 1280 px.

// North of the demo city's centre, away from where the other specs drive: the crew
// waits 200 m from the pickup, so its fresh position is the nearest free ambulance.
const CREW_AT = { latitude: 30.716, longitude: 74.33 }
const PICKUP = { latitude: 30.718, longitude: 74.33 }

/** The board keeps polling: axe once its requests have settled. */
async function expectAccessible(page: Page, screen: string) {
  await page.waitForLoadState('networkidle')
  await axeFindsNothing(page, screen)
}

/** The board's card of an ambulance (an <article> named by its heading). */
const cardOf = (board: Page, number: string) => board.getByRole('article', { name: new RegExp(`^Ambulance ${number} `) })

test('the receiving hospital: the board knows before the ambulance arrives, diversion warns the crew, the handover is on the record', async ({ browser, signedIn, baseURL }) => {
  test.setTimeout(300_000)
  const crew = await crewWithAFreeAmbulance(browser, CREW_AT)
  let bookingId: number | undefined
  try {
    // The requester: one-tap emergency from a phone at the pickup.
    const user = await contextPage(browser, { viewport: PHONE, geolocation: PICKUP, permissions: ['geolocation'] })
    await newUser(user, { prefix: 'er', phone: '+15550131', path: '/emergency' })
    await expect(user.getByText(/^Pickup: your current location/)).toBeVisible()
    const button = user.getByRole('button', { name: 'Hold to send an ambulance' })
    const box = (await button.boundingBox())!
    await user.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await user.mouse.down()
    await user.waitForTimeout(1800)
    await user.mouse.up()
    await expect(user).toHaveURL(/\/bookings\/\d+$/)
    bookingId = Number(new URL(user.url()).pathname.split('/').pop())
    await expect(user.getByRole('heading', { name: `Ambulance ${crew.number}` })).toBeVisible()
    const details = user.getByRole('region', { name: /^Patient details/ })
    await fillPatient(details, { name: `ER Patient ${Date.now().toString(36)}`, age: '71', gender: 'Male', condition: 'Chest pain, sweating' })
    await details.getByRole('button', { name: 'Send to the crew' }).click()
    await expect(details.getByText('Patient details sent to the crew.')).toBeVisible()

    // The crew takes the job; its destination is its own hospital until it says otherwise.
    const job = crew.page.getByRole('region', { name: `Current job #${bookingId}` })
    await expect(job).toBeVisible({ timeout: 20_000 })
    await crew.page.getByRole('button', { name: 'Accept job' }).click()
    await expect(crew.page.getByRole('button', { name: 'Arrived at pickup' })).toBeVisible()
    await crew.page.getByRole('button', { name: 'Arrived at pickup' }).click()
    await expect(crew.page.getByRole('button', { name: 'Patient on board: go to hospital' })).toBeVisible()
    await expect(job.getByText(crew.hospital, { exact: true })).toBeVisible()

    // "Change hospital": the nearest to the ambulance; the crew drives the patient to another one.
    await job.getByRole('button', { name: 'Change hospital' }).click()
    const dialog = crew.page.getByRole('dialog', { name: 'Change the destination hospital' })
    const choices = dialog.getByRole('button', { name: /^Go to / })
    await expect(choices.first()).toBeVisible({ timeout: 20_000 })
    await screenshot(crew.page, 'hospital-crew-change', { phone: true })
    const other = choices.filter({ hasNotText: /· current|On diversion/ }).first()
    const otherName = (await other.innerText()).match(/^Go to (.+?) · /)![1]!
    await other.click()
    await expect(crew.page.getByText(`Destination changed to ${otherName}.`)).toBeVisible()
    await expect(dialog).toHaveCount(0)
    await expect(job.getByText(otherName, { exact: true })).toBeVisible({ timeout: 20_000 })
    await screenshot(crew.page, 'hospital-crew-destination', { phone: true })
    // The requester's page follows: the trip goes to the new destination.
    await expect(user.getByRole('heading', { level: 1 }).locator('xpath=following-sibling::p[1]')).toHaveText(new RegExp(` · ${otherName}$`), { timeout: 20_000 })

    // An admin makes a staff account for that hospital (where crew accounts are made).
    const admin = await signedIn('admin', {}, { path: '/admin/crew' })
    const staff = admin.getByRole('region', { name: 'Hospital staff' })
    await staff.getByRole('button', { name: 'Add Hospital Staff' }).click()
    const form = staff.getByRole('form', { name: 'Add hospital staff' })
    const username = uniqueName('er')
    await form.getByLabel('Username').fill(username)
    await form.getByLabel('Email').fill(`${username}@example.com`)
    await form.getByLabel('Password').fill('staff-secret-1')
    await form.getByLabel('Phone').fill('+91 98140 00101')
    await form.getByLabel('Hospital').selectOption({ label: otherName })
    await form.getByRole('button', { name: 'Add Hospital Staff' }).click()
    await expect(staff.getByText(`Staff account ${username} created for ${otherName}.`)).toBeVisible()
    await admin.context().close()

    // The hospital's phone: its sign-in lands on the incoming board, and the nav offers only it.
    const desk = await contextPage(browser, { viewport: PHONE })
    await desk.goto('/login')
    await desk.getByLabel('Username').fill(username)
    await desk.getByLabel('Password', { exact: true }).fill('staff-secret-1')
    await desk.getByRole('button', { name: 'Sign In' }).click()
    await expect(desk).toHaveURL(/\/hospital$/)
    await expect(desk.getByRole('heading', { name: 'Incoming ambulances', level: 1 })).toBeVisible()
    await expect(desk.getByText(new RegExp(`^Ambulances coming to ${otherName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, most urgent first`))).toBeVisible()
    await desk.getByRole('button', { name: 'Open menu' }).click()
    const menu = desk.getByRole('navigation', { name: 'Mobile' })
    await expect(menu.getByRole('link')).toHaveText(['Incoming', 'Profile'])
    await desk.getByRole('button', { name: 'Close menu' }).click()
    // The users' screens send them back to the board.
    await desk.goto('/history')
    await expect(desk).toHaveURL(/\/hospital$/)

    // The trip is on the board, on its way, with what the requester said about the patient.
    const card = cardOf(desk, crew.number)
    await expect(card).toBeVisible({ timeout: 20_000 })
    await expect(desk.getByRole('region', { name: /^On the way/ }).getByRole('article', { name: new RegExp(`^Ambulance ${crew.number} `) })).toBeVisible()
    await expect(card.getByText(`Booking #${bookingId} · With the patient`)).toBeVisible()
    await expect(card.getByText('71 years · Male')).toBeVisible()
    await expect(card.getByText('Chest pain, sweating')).toBeVisible()
    await expect(card.getByRole('timer')).toHaveText(/^(\d+ min|under 1 min|due now)$/)
    await expect(card.getByText('Emergency')).toBeVisible()

    // On diversion for 1 hour: the crew (not yet on the way to the hospital) is warned, with the open alternative.
    const diversion = desk.getByRole('region', { name: 'Diversion' })
    await diversion.getByRole('button', { name: 'For 1 hour' }).click()
    // Once the board's next answer has it (the End button), the panel's own line says until when (the saved note ends with a full stop).
    await expect(diversion.getByRole('button', { name: 'End diversion' })).toBeVisible()
    const line = diversion.getByText(/^On diversion until [^.]+$/)
    await expect(line).toBeVisible()
    const until = (await line.innerText()).replace(/^On diversion until /, '')
    const warning = crew.page.getByRole('region', { name: `${otherName} is on diversion until ${until}` })
    await expect(warning).toBeVisible({ timeout: 20_000 })
    await expect(warning.getByRole('button', { name: /^Go to .+ instead \(/ })).toBeVisible()
    await screenshot(crew.page, 'hospital-crew-diversion', { phone: true })
    await expectAccessible(desk, 'the board on diversion')
    await screenshot(desk, 'hospital-board-diversion')
    // The hospital opens again: the warning goes.
    await diversion.getByRole('button', { name: 'End diversion' }).click()
    await expect(diversion.getByText('Diversion ended: the hospital is open.')).toBeVisible()
    await expect(warning).toHaveCount(0, { timeout: 20_000 })

    // Patient on board: coming to the hospital, the ETA counting down.
    await crew.page.getByRole('button', { name: 'Patient on board: go to hospital' }).click()
    await expect(card.getByText(`Booking #${bookingId} · Coming to you`)).toBeVisible({ timeout: 20_000 })
    await expect(card.getByRole('timer')).toHaveText(/^(\d+ min|under 1 min|due now)$/)
    await expect(card.getByRole('link', { name: /^Call the crew/ })).toHaveAttribute('href', /^tel:/)
    await expectAccessible(desk, 'the board with an ambulance coming (phone)')
    await desk.setViewportSize({ width: 1280, height: 800 })
    await expectAccessible(desk, 'the board with an ambulance coming (desktop)')
    await desk.setViewportSize(PHONE)
    await screenshot(desk, 'hospital-board')

    // At the door: the wait ticks, and only now the handover can be recorded.
    await crew.page.getByRole('button', { name: 'Arrived at hospital' }).click()
    await expect(crew.page.getByRole('button', { name: 'Handover done' })).toBeVisible()
    const atDoor = desk.getByRole('region', { name: /^At the door/ }).getByRole('article', { name: new RegExp(`^Ambulance ${crew.number} `) })
    await expect(atDoor).toBeVisible({ timeout: 20_000 })
    await expect(atDoor.getByRole('timer')).toHaveText(/^Waiting for \d+ (s|min)$/)
    const first = await atDoor.getByRole('timer').innerText()
    await expect(atDoor.getByRole('timer')).not.toHaveText(first, { timeout: 5_000 })
    await expectAccessible(desk, 'the board with an ambulance at the door')
    await screenshot(desk, 'hospital-board-at-door')

    await atDoor.getByRole('button', { name: `Handover done for booking #${bookingId}` }).click()
    const confirm = desk.getByRole('dialog', { name: `Handover of booking #${bookingId}` })
    await expect(confirm.getByText(`Has the crew of ambulance ${crew.number} handed the patient over to your staff?`)).toBeVisible()
    await expectAccessible(desk, 'the handover dialog')
    await confirm.getByRole('button', { name: 'Yes, handover done' }).click()
    await expect(desk.getByText(`Handover of booking #${bookingId} recorded.`)).toBeVisible()
    const done = desk.getByRole('region', { name: /^Handed over and finished/ }).getByRole('article', { name: new RegExp(`^Ambulance ${crew.number} `) })
    await expect(done).toBeVisible({ timeout: 20_000 })
    await expect(done.getByText(/^Handed over .+ · handover took \d+ (s|min)$/)).toBeVisible()

    // The crew's one button is now Complete; the requester's timeline has the handover.
    await crew.page.getByRole('button', { name: 'Complete job' }).click({ timeout: 20_000 })
    await expect(crew.page.getByText('No job right now')).toBeVisible()
    await expect(user.getByText('This trip is completed.')).toBeVisible({ timeout: 20_000 })
    const steps = user.getByRole('region', { name: 'Trip timeline' }).getByRole('listitem')
    await expect(steps.filter({ hasText: /^Handed over/ })).toHaveCount(1)
    await screenshot(user, 'hospital-requester-timeline', { phone: true })

    // The board in Hindi and Punjabi: its words come with it (i18n/hospital), axe holds.
    for (const [lang, title] of [['hi', 'आने वाली एम्बुलेंस'], ['pa', 'ਆ ਰਹੀਆਂ ਐਂਬੂਲੈਂਸਾਂ']] as const) {
      await desk.evaluate((l) => localStorage.setItem('ambucare.language', l), lang)
      await desk.reload()
      await expect(desk.getByRole('heading', { name: title, level: 1 })).toBeVisible()
      await expect(desk.locator('html')).toHaveAttribute('lang', lang)
      await expect(desk.getByRole('article').filter({ hasText: crew.number })).toBeVisible()
      await expectAccessible(desk, `the board in ${lang}`)
      await screenshot(desk, `lang-${lang}-hospital`, { phone: true })
    }
    await desk.context().close()
    await user.context().close()
  } finally {
    await leaveFree(baseURL!, { bookingId, ambulances: [crew.number] })
    await crew.page.context().close()
  }
})
