import { expect, test, type APIRequestContext } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { blockThirdParty, signIn as signInPage, screenshot } from './support'
import { expectAccessible } from './axe'

// The response-time report (docs/decisions/0021-response-time-report.md) against the
// whole stack: a trip driven to COMPLETED by its crew and one cancelled by its
// requester through the API, folded by the stack's clock, then the admin's screen:
// its figures, charts and table, the CSV download, axe at 1280 and 390 px, and the
// screen in Hindi.

test.beforeEach(async ({ page }) => blockThirdParty(page))

async function signIn(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/api/auth/login', { data: { username, password } })
  expect(res.status(), `sign-in of ${username}`).toBe(200)
  const auth = (await res.json()) as { id: number; token: string }
  return { id: auth.id, headers: { Authorization: `Bearer ${auth.token}` } }
}

/** A seeded crew whose ambulance is free and has no job, with its ambulance. */
async function freeCrew(request: APIRequestContext) {
  for (const n of [1, 2, 3, 4]) {
    const crew = await signIn(request, `crew${n}`, 'crew12345')
    const me = (await (await request.get('/api/crew/me', { headers: crew.headers })).json()) as {
      ambulance: { id: number; hospitalId: number; status: string }
      job: unknown
    }
    if (me.ambulance.status === 'AVAILABLE' && me.job === null) return { ...crew, ambulance: me.ambulance }
  }
  throw new Error('no seeded crew has a free ambulance')
}

/** Two finished trips of one hospital: one completed by its crew, one cancelled by its requester. */
async function finishedTrips(request: APIRequestContext) {
  const crew = await freeCrew(request)
  const user = await signIn(request, 'demo', 'demo12345')
  const book = async () => {
    const res = await request.post(`/api/booking/book?userId=${user.id}`, {
      headers: { ...user.headers, 'Idempotency-Key': `report-${Date.now()}-${Math.random()}` },
      data: {
        hospitalId: crew.ambulance.hospitalId,
        ambulanceId: crew.ambulance.id,
        bookingType: 'EMERGENCY',
        pickup: { latitude: 30.68, longitude: 74.32 },
        patient: { name: 'Report Trip', age: 50, gender: 'Female', condition: 'Counted by the report' },
      },
    })
    expect(res.status()).toBe(201)
    return ((await res.json()) as { id: number }).id
  }
  const done = await book()
  for (const stage of ['EN_ROUTE', 'AT_PICKUP', 'TO_HOSPITAL', 'AT_HOSPITAL', 'COMPLETED']) {
    const res = await request.patch('/api/crew/job/stage', { headers: crew.headers, data: { bookingId: done, stage } })
    expect(res.status(), stage).toBe(200)
  }
  const cancelled = await book()
  expect((await request.patch(`/api/booking/cancel?bookingId=${cancelled}`, { headers: user.headers })).status()).toBe(200)
  return crew.ambulance.hospitalId
}

test('an admin reads how fast help came, as figures, charts, a table and a CSV, in any language', async ({ page, request }) => {
  test.setTimeout(180_000)
  const hospitalId = await finishedTrips(request)
  // The stack's clock folds ended trips every 2 s: wait until the report has both.
  const admin = await signIn(request, 'admin', 'admin12345')
  // Today as the server counts days (the service's zone, Asia/Kolkata), not as this machine does.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date())
  await expect
    .poll(async () => {
      const res = await request.get(`/api/admin/reports/response-times?from=${today}&to=${today}&by=day&hospitalId=${hospitalId}&type=EMERGENCY`, {
        headers: admin.headers,
      })
      return ((await res.json()) as { total: { count: number } }).total.count
    }, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(2)

  await signInPage(page, 'admin', undefined, { path: '/admin' })
  await page.getByRole('link', { name: /Response times/ }).click()
  await expect(page).toHaveURL(/\/admin\/reports$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Response times' })).toBeVisible()
  const hospital = page.getByRole('combobox', { name: 'Hospital', exact: true })
  await expect(hospital.locator('option')).not.toHaveCount(1)
  await hospital.selectOption(String(hospitalId))
  await expect(page.getByText(/^Days as in Asia\/Kolkata/)).toBeVisible()
  // The whole period's figures, a trend per interval, both histograms and the table.
  const summary = page.getByRole('region', { name: 'The whole period' })
  await expect(summary.getByText('Trips', { exact: true })).toBeVisible()
  await expect(page.getByRole('img', { name: /^Answer: median and 90th percentile per period$/ })).toBeVisible()
  await expect(page.getByRole('img', { name: /^Call to pickup: median and 90th percentile per period$/ })).toBeVisible()
  await expect(page.getByRole('img', { name: /^From the call to the pickup: \d+ trips by time$/ })).toBeVisible()
  await expect(page.locator('.recharts-surface').first()).toBeVisible()
  await screenshot(page, 'reports')
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size)
    await page.waitForLoadState('networkidle')
    await expectAccessible(page, `the report (${size.width} px)`)
  }
  await page.setViewportSize({ width: 1280, height: 800 })

  // Day by day: today's row.
  await page.getByRole('combobox', { name: 'Per', exact: true }).selectOption('day')
  const table = page.getByRole('table', { name: /Figures per period/ })
  const todayRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${today}`) }) })
  await expect(todayRow).toHaveCount(1)

  // The CSV: the server's rows for the same filters, the screen's numbers.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()])
  expect(download.suggestedFilename()).toMatch(new RegExp(`^response-times-.*-emergency-hospital-${hospitalId}\\.csv$`))
  const csv = readFileSync((await download.path())!, 'utf8').trim().split('\n')
  expect(csv[0]).toMatch(/^period,from,to,hospitalId,type,count,dispatch\.count,/)
  const line = csv.find((l) => l.startsWith(`${today},`))!
  expect(line.split(',').slice(3, 6)).toEqual([String(hospitalId), 'EMERGENCY', expect.stringMatching(/^[1-9]\d*$/)])
  const trips = line.split(',')[5]!
  await expect(todayRow.getByRole('cell').first()).toHaveText(trips)

  // An empty period: the empty state, not a table of dashes.
  await page.getByLabel('From', { exact: true }).fill('2020-01-01')
  await page.getByLabel('To', { exact: true }).fill('2020-01-31')
  await expect(page.getByRole('heading', { name: 'No finished trips' })).toBeVisible()
  await screenshot(page, 'reports-empty', { phone: true })

  // In Hindi: every word of the screen, the numbers as they were.
  await page.evaluate(() => localStorage.setItem('ambucare.language', 'hi'))
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'प्रतिक्रिया समय' })).toBeVisible()
  await page.getByRole('combobox', { name: 'अस्पताल', exact: true }).selectOption(String(hospitalId))
  await expect(page.getByRole('img', { name: /^जवाब: हर अवधि की माध्यिका और 90वाँ प्रतिशतक$/ })).toBeVisible()
  await screenshot(page, 'reports-hi', { phone: true })
  await expectAccessible(page, 'the report in Hindi (390 px)')
})
