import { expect, type Page } from '@playwright/test'

export const SCREENSHOTS = 'e2e-artifacts/screenshots'

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
  const menu = page.getByRole('button', { name: /^[A-Za-z0-9]/ }).filter({ has: page.locator('span[aria-hidden]') })
  await menu.first().click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
}

export async function screenshot(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-desktop.png`, fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-mobile.png`, fullPage: true })
  await page.setViewportSize({ width: 1280, height: 800 })
}
