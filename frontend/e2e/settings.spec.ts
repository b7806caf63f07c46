import { expect, test, type APIRequestContext } from '@playwright/test'
import { blockThirdParty, signIn, screenshot } from './support'

// Settings a control room changes without a deploy, and the audit trail that records each
// change (docs/decisions/0018, 0023), in the real stack. Only settings no other spec's rule
// reads are changed for good (retention, the report's targets); the emergency number is
// changed and put back within the test, before any other device asks for it.

test.beforeEach(async ({ page }) => blockThirdParty(page))

/** PUT /api/admin/settings as the demo admin, through the API. */
async function putSettings(request: APIRequestContext, body: object) {
  const auth = (await (await request.post('/api/auth/login', { data: { username: 'admin', password: 'admin12345' } })).json()) as { token: string }
  const res = await request.put('/api/admin/settings', { headers: { Authorization: `Bearer ${auth.token}` }, data: body })
  expect(res.status()).toBe(200)
}

test('an admin changes the settings: a refused value beside its input, the change at once and on the audit trail', async ({ page, request }) => {
  test.setTimeout(120_000)
  await signIn(page, 'admin')
  await page.goto('/admin')
  await page.getByRole('link', { name: /System Settings/ }).click()
  await expect(page).toHaveURL(/\/admin\/settings$/)
  const window = page.getByLabel('Emergency answer window')
  await expect(window).toHaveValue(/^\d+$/)
  const windowWas = await window.inputValue()
  await expect(page.getByText('From 5 to 600 seconds')).toBeVisible()

  // Out of range: the server's 400, beside the input; nothing saved.
  await window.fill('4')
  await page.getByRole('button', { name: 'Save Settings' }).click()
  await expect(window).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Not saved: it must be from 5 to 600 seconds.')).toBeVisible()
  await screenshot(page, 'admin-settings-refused')
  await window.fill(windowWas)

  // The emergency number: this device's call buttons follow at once, no rebuild, no reload.
  const topBar = page.getByRole('banner')
  await expect(topBar.getByRole('link', { name: /Emergency 911/ })).toHaveAttribute('href', 'tel:911')
  const number = page.getByLabel('Emergency number to dial')
  try {
    await number.fill('112')
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect(page.getByText(/^Settings saved/)).toBeVisible()
    await expect(topBar.getByRole('link', { name: /Emergency 112/ })).toHaveAttribute('href', 'tel:112')
  } finally {
    await putSettings(request, { emergencyNumber: '911' })
  }
  await page.reload()

  // A setting no other spec reads, to a value it has not had: one more day kept.
  const retention = page.getByLabel('Keep patient details for')
  await expect(retention).toHaveValue(/^\d+$/)
  const daysWas = Number(await retention.inputValue())
  const days = daysWas >= 3650 ? 7 : daysWas + 1
  await expect(topBar.getByRole('link', { name: /Emergency 911/ })).toBeVisible()
  await retention.fill(String(days))
  await page.getByRole('button', { name: 'Save Settings' }).click()
  await expect(page.getByText(/^Settings saved/)).toBeVisible()
  await screenshot(page, 'admin-settings')

  // The audit trail, newest first: who, what, before and after.
  await page.getByRole('link', { name: 'See every change on the audit trail' }).click()
  await expect(page).toHaveURL(/\/admin\/audit$/)
  const rows = page.getByRole('table', { name: 'Audit records, newest first' }).getByRole('row')
  await expect(rows.nth(1)).toContainText('Changed the settings')
  await expect(rows.nth(1)).toContainText(`Keep patient details for: ${daysWas} → ${days}`)
  await expect(rows.nth(2)).toContainText('Emergency number to dial: 112 → 911')
  await expect(rows.nth(3)).toContainText('Emergency number to dial: 911 → 112')
  await page.getByLabel('Admin', { exact: true }).selectOption({ label: 'Me (admin)' })
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/\?adminId=\d+$/)
  await expect(rows.nth(1)).toContainText('Changed the settings')
  await screenshot(page, 'admin-audit')
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(page).toHaveURL(/\/admin\/audit$/)
})
