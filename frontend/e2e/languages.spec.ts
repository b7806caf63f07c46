import { type Locator, type Page } from '@playwright/test'
import { contextPage, crewWithAFreeAmbulance, expect, leaveFree, liveViewAt, PHONE, screenshot, test, uniqueName } from './support'
import { expectAccessible } from './axe'

// Hindi and Punjabi against the real stack (decision 0016): a phone whose browser speaks
// hi-IN or pa-IN opens the app in that language, gets an ambulance dispatched in the
// same 2 taps, and the crew's job screen (its language picked on the device) shows the
// job in it; axe finds nothing serious on any of them, /admin/live included. The
// texts are written out here, not imported, so that a catalogue changed by mistake fails.

const TEXT = {
  hi: {
    username: 'यूज़रनेम',
    password: 'पासवर्ड',
    signIn: 'साइन इन करें',
    send: 'एम्बुलेंस भेजें',
    fromGps: /^पिकअप: आपकी अभी की जगह/,
    call: '911 पर कॉल करें',
    hold: 'एम्बुलेंस भेजने के लिए दबाकर रखें',
    dispatched: 'अनुरोध भेज दिया गया: आपके लिए एम्बुलेंस तय हो गई है।',
    eta: /करीब \d+ (मिनट|घंटे)|एक मिनट से कम/,
    job: (id: number) => `अभी की जॉब #${id}`,
    accept: 'जॉब लें',
    enRoute: 'पिकअप की ओर आ रही है',
    ambulance: (n: string) => `एम्बुलेंस ${n}`,
    live: 'लाइव नक्शा',
  },
  pa: {
    username: 'ਯੂਜ਼ਰਨੇਮ',
    password: 'ਪਾਸਵਰਡ',
    signIn: 'ਸਾਈਨ ਇਨ ਕਰੋ',
    send: 'ਐਂਬੂਲੈਂਸ ਭੇਜੋ',
    fromGps: /^ਪਿਕਅੱਪ: ਤੁਹਾਡੀ ਹੁਣ ਦੀ ਥਾਂ/,
    call: '911 ’ਤੇ ਕਾਲ ਕਰੋ',
    hold: 'ਐਂਬੂਲੈਂਸ ਭੇਜਣ ਲਈ ਦਬਾ ਕੇ ਰੱਖੋ',
    dispatched: 'ਬੇਨਤੀ ਭੇਜ ਦਿੱਤੀ: ਤੁਹਾਡੇ ਲਈ ਐਂਬੂਲੈਂਸ ਤੈਅ ਹੋ ਗਈ ਹੈ।',
    eta: /ਲਗਭਗ \d+ (ਮਿੰਟ|ਘੰਟੇ)|ਇੱਕ ਮਿੰਟ ਤੋਂ ਘੱਟ/,
    job: (id: number) => `ਹੁਣ ਦੀ ਜੌਬ #${id}`,
    accept: 'ਜੌਬ ਲਓ',
    enRoute: 'ਪਿਕਅੱਪ ਵੱਲ ਆ ਰਹੀ ਹੈ',
    ambulance: (n: string) => `ਐਂਬੂਲੈਂਸ ${n}`,
    live: 'ਲਾਈਵ ਨਕਸ਼ਾ',
  },
}

// South of the demo city, apart from the other specs' places and from each other: the
// crew waits 300 m from the pickup, so it is the nearest free ambulance.
const PLACES = {
  hi: { crew: { latitude: 30.573, longitude: 74.32 }, pickup: { latitude: 30.57, longitude: 74.32 } },
  pa: { crew: { latitude: 30.543, longitude: 74.38 }, pickup: { latitude: 30.54, longitude: 74.38 } },
}

/** Nothing sticks out sideways: no element wider than the screen (long words, big script). */
async function expectNoOverflow(page: Page, screen: string) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(wide, `${screen} scrolls sideways by ${wide}px`).toBeLessThanOrEqual(0)
}

async function signIn(page: Page, t: (typeof TEXT)['hi'], username: string, password: string) {
  await page.goto('/login')
  await page.getByLabel(t.username).fill(username)
  await page.getByLabel(t.password, { exact: true }).fill(password)
  await page.getByRole('button', { name: t.signIn }).click()
  await expect(page).not.toHaveURL(/\/login$/)
}

async function holdDown(page: Page, target: Locator) {
  const box = (await target.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.waitForTimeout(1800)
  await page.mouse.up()
}

for (const lang of ['hi', 'pa'] as const) {
  const t = TEXT[lang]
  test(`${lang}-IN: 2 taps to an ambulance and the crew's job, in ${lang}, accessible`, async ({ browser, baseURL }) => {
    test.setTimeout(300_000)
    const crew = await crewWithAFreeAmbulance(browser, PLACES[lang].crew)
    let bookingId: number | undefined
    try {
      // The crew's phone: the language picked on the device (kept in localStorage) wins.
      await crew.page.evaluate((l) => localStorage.setItem('ambucare.language', l), lang)
      await crew.page.reload()
      await expect(crew.page.locator('html')).toHaveAttribute('lang', lang)
      await expect(crew.page.getByRole('heading', { level: 1 })).toHaveText(t.ambulance(crew.number))

      // A phone whose browser speaks the language: the app starts in it.
      const user = await contextPage(browser, { viewport: PHONE, locale: `${lang}-IN`, geolocation: PLACES[lang].pickup, permissions: ['geolocation'] })
      const username = uniqueName(`lang${lang}`)
      await user.goto('/register')
      await expect(user.locator('html')).toHaveAttribute('lang', lang)
      // The account through the API: the register page's words are the catalogue's
      // (Vitest), and this test is about the emergency path.
      const made = await user.request.post(`${baseURL}/api/auth/register`, {
        data: { username, email: `${username}@example.com`, password: 'e2e-secret-1', phone: '+15550125', latitude: 30.67, longitude: 74.33 },
      })
      expect(made.status(), await made.text()).toBe(201)
      await signIn(user, t, username, 'e2e-secret-1')
      await expect(user).toHaveURL(/\/profile$/)

      await user.goto('/')
      const send = user.getByRole('main').getByRole('link', { name: t.send })
      await expect(send).toBeVisible()
      await screenshot(user, `lang-${lang}-home`)
      await expectNoOverflow(user, 'home')
      await expectAccessible(user, `home (${lang})`)

      let taps = 0
      taps++
      await send.click()
      await expect(user).toHaveURL(/\/emergency$/)
      await expect(user.getByText(t.fromGps)).toBeVisible()
      await expect(user.getByRole('link', { name: t.call }).first()).toHaveAttribute('href', 'tel:911')
      await screenshot(user, `lang-${lang}-emergency`)
      await expectNoOverflow(user, 'emergency')
      await expectAccessible(user, `emergency (${lang})`)
      taps++
      await holdDown(user, user.getByRole('button', { name: t.hold }))
      await expect(user).toHaveURL(/\/bookings\/\d+$/)
      await expect(user.getByText(t.dispatched)).toBeVisible()
      expect(taps, 'taps from the home page to "ambulance dispatched"').toBe(2)
      bookingId = Number(new URL(user.url()).pathname.split('/').pop())

      // The crew's screen shows the job in its language; accepting moves the trip on.
      await expect(crew.page.getByRole('heading', { name: t.job(bookingId) })).toBeVisible({ timeout: 20_000 })
      await expect(crew.page.getByRole('button', { name: t.accept })).toBeVisible()
      await screenshot(crew.page, `lang-${lang}-crew`)
      await expectNoOverflow(crew.page, 'crew')
      await expectAccessible(crew.page, `crew (${lang})`)
      await crew.page.getByRole('button', { name: t.accept }).click()
      await expect(user.getByRole('heading', { level: 1 }).locator('xpath=following-sibling::p[1]')).toHaveText(new RegExp(`^${t.enRoute} · `), { timeout: 20_000 })
      await expect(user.getByText(t.eta).first()).toBeVisible({ timeout: 20_000 })
      await screenshot(user, `lang-${lang}-trip`)
      await expectNoOverflow(user, 'trip')
      await expectAccessible(user, `trip (${lang})`)

      // The dispatcher's live map, on a computer speaking the language.
      const admin = await contextPage(browser, { locale: `${lang}-IN` })
      await signIn(admin, t, 'admin', 'admin12345')
      // On the trip's area, as a dispatcher watching it (support.ts, liveViewAt).
      await admin.evaluate((view) => localStorage.setItem('admin.liveView', view), liveViewAt(PLACES[lang].crew)['admin.liveView'])
      await admin.goto('/admin/live')
      await expect(admin.getByRole('heading', { level: 1, name: t.live })).toBeVisible()
      // The map has opened on the fleet (its markers drawn), not its loading state.
      await expect(admin.locator('path.leaflet-interactive').first()).toBeVisible({ timeout: 30_000 })
      await screenshot(admin, `lang-${lang}-live`)
      await expectNoOverflow(admin, '/admin/live')
      await expectAccessible(admin, `/admin/live (${lang})`)
      await admin.context().close()
      await user.context().close()
    } finally {
      await crew.page.context().close()
      await leaveFree(baseURL!, { bookingId, ambulances: [crew.number] })
    }
  })
}

// Every screen fits at a phone's 390 px and a computer's 1280 px in Hindi and Punjabi
// (their words run longer and taller than English): nothing makes the page scroll
// sideways. English is covered screen by screen in a11y.spec.ts.
const SIGNED_OUT = ['/', '/about', '/login', '/register', '/t/not-a-real-link', '/no-such-page']
const AS_USER = ['/', '/profile', '/history', '/hospitals/nearest', '/hospitals/1/ambulances', '/booking', '/emergency']
const AS_ADMIN = ['/admin', '/admin/hospitals', '/admin/ambulances', '/admin/bookings', '/admin/crew', '/admin/live']

// Each screen is opened once and looked at in both widths (the page laid out again, as
// when a phone turns), not opened twice: a page load is most of what this test costs.
async function expectScreensFit(page: Page, paths: string[], who: string) {
  for (const path of paths) {
    await page.goto(path)
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 })
      await page.waitForLoadState('networkidle')
      await expectNoOverflow(page, `${path} (${who}, ${width} px)`)
    }
  }
}

for (const lang of ['hi', 'pa'] as const) {
  test(`${lang}-IN: every screen fits at 390 and 1280 px`, async ({ browser }) => {
    test.setTimeout(300_000)
    const t = TEXT[lang]
    const page = await contextPage(browser, {
      locale: `${lang}-IN`,
      geolocation: { latitude: 30.21, longitude: 74.95 },
      permissions: ['geolocation'],
    })
    await expectScreensFit(page, SIGNED_OUT, 'signed out')
    await signIn(page, t, 'demo', 'demo12345')
    await expectScreensFit(page, AS_USER, 'user')
    const admin = await contextPage(browser, { locale: `${lang}-IN` })
    await signIn(admin, t, 'admin', 'admin12345')
    await expectScreensFit(admin, AS_ADMIN, 'admin')
    await admin.context().close()
    await page.context().close()
  })
}
