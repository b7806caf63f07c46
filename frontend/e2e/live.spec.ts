import { contextPage, expect, screenshot, signIn, test } from './support'

// The dispatcher's live map (decision 0013): a first visit opens on where the fleet is (never an empty world), and
// the next visit opens on the view the dispatcher left.

test('the live map opens on the fleet, then on the last view', async ({ browser }) => {
  test.setTimeout(180_000)
  const admin = await contextPage(browser, { viewport: { width: 1280, height: 800 } })
  await signIn(admin, 'admin', undefined, { path: '/admin/live' })
  await expect(admin.getByRole('heading', { name: 'Live Map' })).toBeVisible()
  const heading = admin.getByRole('heading', { name: /^Ambulances in view \(\d+\)$/ })
  await expect(heading).toBeVisible({ timeout: 30_000 })
  const shown = Number(/\((\d+)\)/.exec((await heading.textContent())!)![1])
  expect(shown).toBeGreaterThan(0)
  await expect(admin.getByText('Nothing in view')).toHaveCount(0)
  await expect(admin.locator('path.leaflet-interactive').first()).toBeVisible()
  await screenshot(admin, 'admin-live-fleet')

  // Zoomed in, the view is kept: the next visit opens there, not on the whole fleet.
  const savedZoom = () => admin.evaluate(() => (JSON.parse(localStorage.getItem('admin.liveView') ?? 'null') as { zoom: number } | null)?.zoom)
  await expect.poll(savedZoom).toBeGreaterThan(0)
  const fitted = (await savedZoom())!
  await admin.getByRole('button', { name: 'Zoom in' }).click()
  await expect.poll(savedZoom).toBe(fitted + 1)
  const left = await admin.evaluate(() => JSON.parse(localStorage.getItem('admin.liveView')!) as { center: [number, number]; zoom: number })
  await admin.reload()
  await expect(admin.getByRole('heading', { name: /^Ambulances in view \(\d+\)$/ })).toBeVisible({ timeout: 30_000 })
  const back = await admin.evaluate(() => JSON.parse(localStorage.getItem('admin.liveView')!) as { center: [number, number]; zoom: number })
  expect(back.zoom).toBe(left.zoom)
  expect(back.center[0]).toBeCloseTo(left.center[0], 3)
  expect(back.center[1]).toBeCloseTo(left.center[1], 3)
  await admin.context().close()
})
