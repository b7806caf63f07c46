import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { applyLanguage } from '@/i18n/language'
import { renderRoutes } from '@/test/render'
import { en, type PrivacyText } from '@/i18n/privacy/en'
import { hi } from '@/i18n/privacy/hi'
import { pa } from '@/i18n/privacy/pa'
import PrivacyPage from './PrivacyPage'

/** Every text of `t`, flattened. */
const texts = (t: unknown): string[] =>
  typeof t === 'string'
    ? [t]
    : typeof t === 'function'
      ? [String(t(37))]
      : Array.isArray(t)
        ? t.flatMap(texts)
        : Object.values(t as object).flatMap(texts)

/** The same keys and list lengths as English. */
const shape = (t: unknown): unknown =>
  typeof t === 'string' ? 's' : typeof t === 'function' ? 'f' : Array.isArray(t) ? t.map(shape) : Object.fromEntries(Object.entries(t as object).map(([k, v]) => [k, shape(v)]))

afterEach(() => applyLanguage('en'))

describe('the privacy page', () => {
  it('says what is kept, how long, who sees it and how to take or delete it', async () => {
    renderRoutes([{ path: '/privacy', element: <PrivacyPage /> }], '/privacy')
    expect(await screen.findByRole('heading', { level: 1, name: 'Your data and your privacy' })).toBeInTheDocument()
    for (const heading of ['What we keep, and why', 'How long we keep it', 'Who sees it', 'Your choices']) {
      expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument()
    }
    expect(screen.getByText(/erased 90 days after the trip ends/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to your profile' })).toHaveAttribute('href', '/profile')
  })

  it.each<[string, 'hi' | 'pa', PrivacyText, RegExp]>([
    ['Hindi', 'hi', hi, /[\u0900-\u097F]/],
    ['Punjabi', 'pa', pa, /[\u0A00-\u0A7F]/],
  ])('is in %s, every text of English there and none empty', async (_name, language, text, script) => {
    expect(shape(text)).toEqual(shape(en))
    expect(texts(text).filter((t) => t.trim() === '')).toEqual([])
    expect(texts(text).every((t) => script.test(t))).toBe(true)
    // The retention period is shown wherever English shows it.
    expect(text.page.erasedAfter(37)).toContain('37')
    await applyLanguage(language)
    renderRoutes([{ path: '/privacy', element: <PrivacyPage /> }], '/privacy')
    expect(await screen.findByRole('heading', { level: 1, name: text.page.title })).toBeInTheDocument()
    expect(document.documentElement.lang).toBe(language)
  })
})
