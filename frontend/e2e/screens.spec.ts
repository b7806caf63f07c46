import { blockThirdParty, expect, screenshot, screenshotPath, signIn, test } from './support'

// Screenshots of every screen of the spec at desktop (1280x800) and mobile (390x844),
// saved as e2e-artifacts/screenshots/<name>-<desktop|mobile>.png for CI artifacts.

test.beforeEach(async ({ page }) => blockThirdParty(page))

const liveFigures = /^\d+ of \d+ ambulances are currently available$/

test('screenshots: home, about, login, register (signed out)', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible()
  await expect(page.getByText(liveFigures)).toBeVisible()
  await screenshot(page, 'home')
  await page.goto('/about')
  await expect(page.getByText('Project Under Development')).toBeVisible()
  await screenshot(page, 'about')
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible()
  await screenshot(page, 'login')
  await page.goto('/register')
  await expect(page.getByRole('button', { name: 'Register' })).toBeVisible()
  await screenshot(page, 'register')
})

test('screenshots: profile, profile editing and home (signed in)', async ({ page }) => {
  await signIn(page, 'demo')
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible()
  await expect(page.getByText('Member since')).toBeVisible()
  await screenshot(page, 'profile')
  await page.getByRole('button', { name: 'Edit Profile' }).click()
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible()
  await screenshot(page, 'profile-edit')
  await page.goto('/')
  await expect(page.getByRole('link', { name: 'Book Ambulance' }).first()).toBeVisible()
  await expect(page.getByText(liveFigures)).toBeVisible()
  await screenshot(page, 'home-signed-in')

  // The mobile menu, open.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.getByRole('button', { name: 'Open menu' }).click()
  const menu = page.getByRole('navigation', { name: 'Mobile' })
  await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible()
  await page.screenshot({ path: screenshotPath('menu-open-mobile.png') })
  await menu.getByRole('link', { name: 'Profile' }).click()
  await expect(page).toHaveURL(/\/profile$/)
  await expect(menu).toHaveCount(0)
})
