import path from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'

/** frontend/e2e-artifacts/screenshots, wherever Playwright was started from. */
export const screenshotPath = (file: string) =>
  path.join(test.info().project.testDir, '..', 'e2e-artifacts', 'screenshots', file)

/** Third-party hosts (map tiles) are blocked: the app must work without them. */
export async function blockThirdParty(page: Page) {
  await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort())
}

export function uniqueName(prefix: string) {
  return `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
}

export async function login(page: Page, username: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/profile$/)
}

/** Fills the registration form already shown (email: <username>@example.com) and sends it. */
export async function register(page: Page, user: { username: string; password: string; phone: string }) {
  await page.getByLabel('Username').fill(user.username)
  await page.getByLabel('Email').fill(`${user.username}@example.com`)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await page.getByLabel('Phone').fill(user.phone)
  await page.getByLabel('Latitude').fill('30.67')
  await page.getByLabel('Longitude').fill('74.33')
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page).toHaveURL(/\/login$/)
}

/** Fills the patient's details in a booking form: the page's, or the dialog's (`scope`). */
export async function fillPatient(
  scope: Page | Locator,
  patient: { name: string; age: string; gender: 'Male' | 'Female' | 'Other'; condition: string },
) {
  await scope.getByLabel('Patient Name').fill(patient.name)
  await scope.getByLabel('Age').fill(patient.age)
  await scope.getByLabel('Gender').selectOption(patient.gender)
  await scope.getByLabel('Medical Condition').fill(patient.condition)
}

export async function logout(page: Page) {
  await page.getByRole('button', { name: /account menu$/ }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
}

/**
 * Saves `<name>-desktop.png` (1280x800) and `<name>-mobile.png` (390x844), full page;
 * with a modal dialog open, the viewport only: that is all a person sees then (a full
 * page would show the backdrop over the first screenful only).
 */
export async function screenshot(page: Page, name: string) {
  await page.waitForLoadState('networkidle')
  const modal = (await page.locator('dialog[open]').count()) > 0
  for (const [kind, size] of [
    ['desktop', { width: 1280, height: 800 }],
    ['mobile', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size)
    await page.evaluate(() => document.fonts.ready)
    await page.screenshot({ path: screenshotPath(`${name}-${kind}.png`), fullPage: !modal, animations: 'disabled' })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}
