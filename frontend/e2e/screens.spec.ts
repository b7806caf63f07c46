import { expect, test } from '@playwright/test'
import { blockThirdParty, login, screenshot } from './support'

test.beforeEach(async ({ page }) => blockThirdParty(page))

test('screenshots: home, about, login, register (signed out)', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible()
  await screenshot(page, 'home')
  await page.goto('/about')
  await expect(page.getByText('Project Under Development')).toBeVisible()
  await screenshot(page, 'about')
  await page.goto('/login')
  await screenshot(page, 'login')
  await page.goto('/register')
  await screenshot(page, 'register')
})

test('screenshots: profile and home (signed in)', async ({ page }) => {
  await login(page, 'demo', 'demo12345')
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible()
  await screenshot(page, 'profile')
  await page.getByRole('button', { name: 'Edit Profile' }).click()
  await screenshot(page, 'profile-edit')
  await page.goto('/')
  await expect(page.getByRole('link', { name: 'Book Ambulance' }).first()).toBeVisible()
  await screenshot(page, 'home-signed-in')
})
