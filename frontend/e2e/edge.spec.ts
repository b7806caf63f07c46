import fs from 'node:fs'
import path from 'node:path'
import { tileHost } from '../edge'
import { expect, test } from './support'

// The local servers do what CloudFront does for the deployed app (docs/requirements.md, "The web app"):
// its security headers on every answer, and no answer to another site's requests.

/** What template.yaml's SecurityHeadersPolicy sends, read from the template itself. */
function templateHeaders(host: string): Record<string, string> {
  const text = fs.readFileSync(path.join(test.info().project.testDir, '..', '..', 'template.yaml'), 'utf8')
  const lines = text.split('\n')
  const cspAt = lines.findIndex((l) => l.includes('ContentSecurityPolicy: !Sub >-'))
  expect(cspAt, 'template.yaml has a ContentSecurityPolicy').toBeGreaterThan(0)
  // The folded block: the lines indented deeper than its key (the next key or comment ends it).
  const indent = (l: string) => l.length - l.trimStart().length
  const csp: string[] = []
  for (const line of lines.slice(cspAt + 1)) {
    if (!line.trim() || indent(line) <= indent(lines[cspAt])) break
    csp.push(line.trim())
  }
  const value = (key: string) => text.match(new RegExp(`${key}: (\\S+)`))![1]
  // CustomHeadersConfig: each `- Header: <name>` with its `Value:` on the next line.
  const custom: Record<string, string> = {}
  for (const [, name, quoted] of text.matchAll(/- Header: (\S+)\n\s+Value: (.+)\n/g)) custom[name.toLowerCase()] = quoted.replace(/^"(.*)"$/, '$1')
  expect(Object.keys(custom).sort(), 'template.yaml has the custom security headers').toEqual(['cross-origin-opener-policy', 'permissions-policy'])
  return {
    ...custom,
    'strict-transport-security': `max-age=${value('AccessControlMaxAgeSec')}; includeSubDomains`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': value('FrameOption'),
    'referrer-policy': value('ReferrerPolicy'),
    'content-security-policy': csp.join(' ').replaceAll('${TileHost}', host),
  }
}

test("every answer carries CloudFront's security headers, the same as template.yaml's", async ({ request }) => {
  const expected = templateHeaders(tileHost())
  // The installable app's files too (vite-plugin-pwa): the service worker, its registration, the manifest.
  for (const url of ['/', '/hospitals/nearest', '/api/hospitals/all?page=0&size=1', '/sw.js', '/registerSW.js', '/manifest.webmanifest']) {
    const res = await request.get(url)
    expect(res.status(), url).toBe(200)
    for (const [name, value] of Object.entries(expected)) expect(res.headers()[name], `${url}: ${name}`).toBe(value)
  }
})

test("the API refuses another site's requests and answers its own", async ({ request, baseURL }) => {
  const foreign = await request.get('/api/hospitals/all?page=0&size=1', { headers: { Origin: 'https://evil.example' } })
  expect(foreign.status()).toBe(403)
  expect(await foreign.json()).toMatchObject({ field: 'Origin' })
  expect(foreign.headers()['access-control-allow-origin']).toBeUndefined()

  const own = await request.get('/api/hospitals/all?page=0&size=1', { headers: { Origin: new URL(baseURL!).origin } })
  expect(own.status()).toBe(200)
  expect(own.headers()['access-control-allow-origin']).toBeUndefined()
})

test('the installable app needs nothing the policy refuses: the service worker installs and takes the page', async ({ page }) => {
  const refused: string[] = []
  await page.exposeFunction('reportRefused', (what: string) => refused.push(what))
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportRefused: (w: string) => void }).reportRefused(`${e.violatedDirective}: ${e.blockedURI}`),
    ),
  )
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) refused.push(m.text())
  })
  await page.goto('/')
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest')
  // Registered by /registerSW.js (no inline script), precaches the build, then controls the page.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
  await page.goto('/hospitals/nearest')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(refused).toEqual([])
})
