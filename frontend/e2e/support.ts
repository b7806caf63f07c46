import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'

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
