import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { blockThirdParty, contextPage, signIn, PHONE, register, screenshot, uniqueName } from './support'
import { expectAccessible } from './axe'

// Your data, your choice (docs/decisions/0022-personal-data.md), against the real stack:
// the privacy page reached from registration, in three languages; a new user takes
// their data as a file and deletes their account, after which it signs in no more and
// its name is free again. The texts are written out here, not imported.

test.beforeEach(async ({ page }) => blockThirdParty(page))

test('the privacy page says it plainly, in English, Hindi and Punjabi', async ({ page, browser }) => {
  test.setTimeout(120_000)
  await page.goto('/register')
  await page.getByRole('link', { name: 'How we use your data' }).click()
  await expect(page).toHaveURL(/\/privacy$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Your data and your privacy' })).toBeVisible()
  await expect(page.getByText(/erased 90 days after the trip ends/)).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Privacy' })).toBeVisible()
  for (const width of [1280, PHONE.width]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : PHONE.height })
    await expectAccessible(page, `privacy (${width} px)`)
  }
  await screenshot(page, 'privacy')

  for (const [locale, title, lang] of [
    ['hi-IN', 'आपका डेटा और आपकी निजता', 'hi'],
    ['pa-IN', 'ਤੁਹਾਡਾ ਡੇਟਾ ਅਤੇ ਤੁਹਾਡੀ ਨਿੱਜਤਾ', 'pa'],
  ] as const) {
    const phone = await contextPage(browser, { locale, viewport: PHONE })
    await phone.goto('/privacy')
    await expect(phone.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await expect(phone.locator('html')).toHaveAttribute('lang', lang)
    await expectAccessible(phone, `privacy in ${lang}`)
    await screenshot(phone, `lang-${lang}-privacy`, { phone: true })
    await phone.context().close()
  }
})

test('a user takes their data, then deletes their account; its name is free again', async ({ page }) => {
  test.setTimeout(120_000)
  const username = uniqueName('leaver')
  const password = 'e2e-password'
  await page.goto('/register')
  await register(page, { username, password, phone: '+91 98765 43210' })
  await signIn(page, username, password)

  const yourData = page.getByRole('region', { name: 'Your data' })
  await expect(yourData).toBeVisible()
  await screenshot(page, 'profile-your-data')
  const downloading = page.waitForEvent('download')
  await yourData.getByRole('button', { name: 'Download my data' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^ambucare-data-\d{4}-\d{2}-\d{2}\.json$/)
  const data = JSON.parse(await readFile((await download.path())!, 'utf8'))
  expect(data.profile).toMatchObject({ username, email: `${username}@example.com`, phone: '+919876543210' })
  expect(data).toMatchObject({ bookings: [], devices: [], shareLinks: [], patientReads: [] })
  await expect(yourData.getByText('Your data was downloaded.')).toBeVisible()

  await yourData.getByRole('button', { name: 'Delete my account' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
  await dialog.getByLabel('Your password').fill('not-my-password')
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('That password is not correct.')
  await expectAccessible(page, 'the delete dialog with its error')
  await screenshot(page, 'profile-delete-dialog')
  await dialog.getByLabel('Your password').fill(password)
  await dialog.getByRole('button', { name: 'Delete my account' }).click()

  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByText('Your account has been deleted.')).toBeVisible()
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password')
  // The name and the email are free for anyone again.
  await page.goto('/register')
  await register(page, { username, password: 'another-password', phone: '+91 98765 43210' })
})
