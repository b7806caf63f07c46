import { blockThirdParty, expect, login, logout, register, signIn, test, uniqueName } from './support'

test.beforeEach(async ({ page }) => blockThirdParty(page))

test('a visitor registers, signs in, edits the profile and signs out', async ({ page }) => {
  const username = uniqueName('e2e')
  await page.goto('/register')
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page.getByRole('alert')).toHaveText('Please fill in all fields.')

  await register(page, { username, password: 'e2e-password', phone: '+1 555 010 9999' })

  await login(page, username, 'e2e-password')
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible()
  await expect(page.getByText(`${username}@example.com`)).toBeVisible()
  await expect(page.getByText('30.6700')).toBeVisible()

  await page.getByRole('button', { name: 'Edit Profile' }).click()
  await page.getByLabel('Email').fill(`${username}@example.org`)
  await page.getByLabel('Latitude').fill('30.7')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Profile updated successfully!')).toBeVisible()
  await expect(page.getByText(`${username}@example.org`)).toBeVisible()
  await expect(page.getByText('30.7000')).toBeVisible()

  // The change is stored on the server, not only in the page.
  await page.reload()
  await expect(page.getByText(`${username}@example.org`)).toBeVisible()

  await logout(page)
  await page.goto('/profile')
  await expect(page).toHaveURL(/\/login$/)
})

test('a wrong password says so', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo')
  await page.getByLabel('Password', { exact: true }).fill('not-the-password')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password')
})

test('an admin sees the Admin link but not History, Book Ambulance or Hospitals', async ({ page }) => {
  await signIn(page, 'admin')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: 'Admin' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'History' })).toHaveCount(0)
  await expect(nav.getByRole('link', { name: 'Book Ambulance' })).toHaveCount(0)
  await expect(nav.getByRole('link', { name: 'Hospitals' })).toHaveCount(0)
  // The profile hides the location of an admin and shows the badge.
  await expect(page.getByRole('region', { name: 'Account details' }).getByText('Admin', { exact: true })).toBeVisible()
  await expect(page.getByText('Latitude')).toHaveCount(0)
})

test('a user sees History, Book Ambulance and Hospitals but no Admin link, and is kept out of /admin', async ({ page }) => {
  await signIn(page, 'demo')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: 'History' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0)
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/$/)
})

test('a bad access token is renewed silently; a session that cannot be renewed sends the user to sign in again', async ({ page }) => {
  await signIn(page, 'demo')
  // The refresh token still holds (decision 0008): the app gets a new access token and stays.
  await page.evaluate(() => localStorage.setItem('token', 'forged.token.value'))
  await page.goto('/profile')
  await expect(page.getByText('Member since')).toBeVisible()
  await expect(page).toHaveURL(/\/profile$/)
  expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBe('forged.token.value')
  // Both forged: the session is over.
  await page.evaluate(() => {
    localStorage.setItem('token', 'forged.token.value')
    localStorage.setItem('refreshToken', 'forged-refresh-token')
  })
  await page.goto('/profile')
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByText('Your session has expired. Please sign in again.')).toBeVisible()
})
