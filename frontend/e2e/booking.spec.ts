import { type Browser, type Locator, type Page } from '@playwright/test'
import { blockThirdParty, expect, fillPatient, newUser, screenshot, signedInPage, signIn, test } from './support'

// The booking journeys against the real stack: a user books, an admin moves the
// booking through its states, the user's open history follows without a reload.

async function signedIn(browser: Browser, username: string): Promise<Page> {
  return signedInPage(browser, username, { viewport: { width: 1280, height: 800 } })
}

/**
 * Fills in the patient in `form` (the dialog or the page), screenshots it as `shot`,
 * books with `button`, and waits for the success and the move to /history; returns the
 * booking's row there.
 */
async function bookFor(
  page: Page,
  form: Page | Locator,
  patient: Parameters<typeof fillPatient>[1],
  { button, shot }: { button: string; shot: string },
) {
  await fillPatient(form, patient)
  await screenshot(page, shot)
  await form.getByRole('button', { name: button }).click()
  await expect(form.getByText('Ambulance booked successfully!')).toBeVisible()
  await expect(page).toHaveURL(/\/history$/)
  return page.getByRole('row').filter({ hasText: patient.name })
}

/** Opens, nearest first, the first hospital with an ambulance that can be booked. */
async function openHospitalWithAvailableAmbulance(page: Page) {
  await page.goto('/hospitals/nearest')
  await expect(page).toHaveURL(/lat=30\.67&lng=74\.33/)
  const links = page.getByRole('link', { name: 'View Ambulances' })
  await expect(links.first()).toBeVisible()
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))
  for (const href of hrefs) {
    await page.goto(href)
    await expect(page.getByText('Total Ambulances')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/ Ambulances$/)
    if ((await page.getByRole('button', { name: /^Book Now/ }).count()) > 0) return href
  }
  throw new Error('no hospital near the demo user has an available ambulance')
}

test('a user books from a hospital page, an admin sets it ACTIVE then COMPLETED, the user sees it live', async ({ browser }) => {
  test.setTimeout(180_000)
  const patient = `E2E Patient ${Date.now().toString(36)}`
  const user = await signedIn(browser, 'demo')

  // The user books from the hospital's page, through the dialog.
  const hospitalHref = await openHospitalWithAvailableAmbulance(user)
  const hospitalName = (await user.getByRole('heading', { level: 1 }).innerText()).replace(/ Ambulances$/, '')
  const book = user.getByRole('button', { name: /^Book Now/ }).first()
  const number = (await book.getAttribute('aria-label'))!.replace('Book Now: ambulance ', '')
  await book.click()
  const dialog = user.getByRole('dialog', { name: `Book Ambulance ${number}` })
  await expect(dialog.getByText('Regular medical transport')).toBeVisible()
  await expect(dialog.getByText('Urgent medical care')).toBeVisible()
  await dialog.getByRole('button', { name: 'Book Ambulance' }).click()
  await expect(dialog.getByText('Please fill in all required fields.')).toBeVisible()
  // Booked, then taken to the history after 1.5 s, where the booking is PENDING.
  const patientDetails = { name: patient, age: '54', gender: 'Female', condition: 'Shortness of breath since morning' } as const
  const row = await bookFor(user, dialog, patientDetails, { button: 'Book Ambulance', shot: 'booking-dialog' })
  await expect(row).toHaveCount(1)
  await expect(row.getByText('PENDING')).toBeVisible()
  await expect(row.getByText(hospitalName)).toBeVisible()
  await expect(row.getByText(number, { exact: true })).toBeVisible()
  await expect(user.getByText('Open bookings update automatically.')).toBeVisible()
  await screenshot(user, 'history')

  // The admin moves it PENDING -> ACTIVE -> COMPLETED from the bookings screen.
  const admin = await signedIn(browser, 'admin')
  await admin.goto('/admin')
  await expect(admin.getByRole('region', { name: 'Recent Bookings' }).getByText(patient, { exact: false })).toBeVisible()
  await expect(admin.getByText('Registered Users')).toBeVisible()
  await screenshot(admin, 'admin-dashboard')

  await admin.goto('/admin/bookings')
  await admin.getByLabel('Search bookings').fill(number)
  const adminRow = admin.getByRole('row').filter({ hasText: patient })
  await expect(adminRow).toHaveCount(1)
  const status = adminRow.getByRole('combobox', { name: /^Status of booking/ })
  // Decision 0007: an admin may also complete any open booking (it frees the ambulance).
  await expect(status.locator('option')).toHaveText(['PENDING', 'ACTIVE', 'COMPLETED', 'CANCELLED'])
  await status.selectOption('ACTIVE')
  await expect(admin.getByText('Booking status updated successfully!')).toBeVisible()
  await expect(status.locator('option')).toHaveText(['ACTIVE', 'COMPLETED', 'CANCELLED'])

  await admin.getByLabel('Search bookings').fill('')
  await screenshot(admin, 'admin-bookings')
  await admin.getByLabel('Search bookings').fill(number)

  // The user's open history follows without a reload.
  await expect(row.getByText('ACTIVE')).toBeVisible({ timeout: 25_000 })

  await status.selectOption('COMPLETED')
  await expect(admin.getByText('Booking status updated successfully!')).toBeVisible()
  await expect(adminRow.getByText('COMPLETED')).toBeVisible()
  await expect(adminRow.getByRole('combobox')).toHaveCount(0)
  await adminRow.getByRole('button', { name: /^View booking/ }).click()
  const details = admin.getByRole('dialog', { name: /^Booking #\d+$/ })
  await expect(details).toContainText(patient)
  await expect(details).toContainText('demo@example.com')
  await screenshot(admin, 'admin-booking-details')
  await admin.keyboard.press('Escape')
  await expect(details).toHaveCount(0)

  await expect(row.getByText('COMPLETED')).toBeVisible({ timeout: 25_000 })
  await expect(row.getByRole('button', { name: /^Cancel booking/ })).toHaveCount(0)

  // The ambulance is Available again.
  await user.goto(hospitalHref)
  const card = user.getByRole('listitem').filter({ has: user.getByRole('heading', { name: number, exact: true }) })
  await expect(card.getByText('Available', { exact: true })).toBeVisible()
  await expect(card.getByRole('button', { name: /^Book Now/ })).toBeVisible()

  await user.context().close()
  await admin.context().close()
})

test('a user books an emergency through the form with a preselected ambulance, then cancels it', async ({ page }) => {
  await blockThirdParty(page)
  const patient = `E2E Form ${Date.now().toString(36)}`
  await signIn(page, 'demo')

  // An available ambulance, read from the public API (no mocks).
  const near = await (await page.request.get('/api/hospitals/nearest?lat=30.67&lng=74.33&limit=20')).json()
  let choice: { hospitalId: number; ambulanceId: number; number: string } | undefined
  for (const h of near as { id: number }[]) {
    const list = await (await page.request.get(`/api/ambulances/available?hospitalId=${h.id}`)).json()
    if (list.length > 0) {
      choice = { hospitalId: h.id, ambulanceId: list[0].id, number: list[0].number }
      break
    }
  }
  expect(choice).toBeDefined()

  await page.goto('/booking')
  await expect(page.getByRole('heading', { name: 'Book an Ambulance' })).toBeVisible()
  await expect(page.getByLabel('Available Ambulance')).toBeDisabled()
  await page.getByRole('button', { name: 'Book Ambulance' }).click()
  await expect(page.getByText('Please fill in all required fields.')).toBeVisible()
  await screenshot(page, 'booking-form-empty')

  await page.goto(`/book-ambulance?hospitalId=${choice!.hospitalId}&ambulanceId=${choice!.ambulanceId}`)
  await expect(page.getByLabel('Hospital', { exact: true })).toHaveValue(String(choice!.hospitalId))
  await expect(page.getByLabel('Available Ambulance')).toHaveValue(String(choice!.ambulanceId))
  await page.getByRole('radio', { name: /Emergency/ }).check()
  const patientDetails = { name: patient, age: '7', gender: 'Other', condition: 'High fever and seizures' } as const
  const row = await bookFor(page, page, patientDetails, { button: 'Book Emergency Ambulance', shot: 'booking-form' })
  await expect(row.getByText('PENDING')).toBeVisible()
  await expect(row.getByText('Emergency')).toBeVisible()
  await row.getByRole('button', { name: /^Cancel booking/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Cancel Booking' })
  await expect(dialog).toContainText(choice!.number)
  await screenshot(page, 'history-cancel-dialog')
  await dialog.getByRole('button', { name: 'Cancel Booking' }).click()
  await expect(page.getByText('Booking cancelled.')).toBeVisible()
  await expect(row.getByText('CANCELLED')).toBeVisible()

  // Booking the same ambulance again works: cancelling freed it.
  const again = await (await page.request.get(`/api/ambulances/available?hospitalId=${choice!.hospitalId}`)).json()
  expect((again as { id: number }[]).some((a) => a.id === choice!.ambulanceId)).toBe(true)
})

test('an empty history links to the booking form', async ({ page }) => {
  await blockThirdParty(page)
  await newUser(page, { phone: '+15550123' })
  await page.goto('/history')
  await expect(page.getByText('No bookings yet')).toBeVisible()
  await screenshot(page, 'history-empty')
  await page.getByRole('link', { name: 'Book your first ambulance' }).click()
  await expect(page).toHaveURL(/\/booking$/)
  await expect(page.getByRole('heading', { name: 'Book an Ambulance' })).toBeVisible()
})
