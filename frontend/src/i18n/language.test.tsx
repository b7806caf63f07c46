// Formatting and plurals in each language, the first language, the picker, and the
// server's errors said from their code.
import { afterEach, describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ApiError, messageOf } from '@/lib/api'
import { bookingStatusText, formatAge, formatDate, formatDistance, formatEta, formatTime, formatWait } from '@/lib/format'
import { notificationFor } from '@/lib/push/notification'
import { S, setStrings } from '@/strings'
import { LanguagePicker } from '@/components/LanguagePicker'
import { BookingStatusSelect } from '@/features/admin/components/BookingStatusSelect'
import { booking } from '@/test/fixtures'
import { en } from './en'
import { hi } from './hi'
import { pa } from './pa'
import { applyLanguage, currentLanguage, initialLanguage } from './language'
import { fromBrowser, STORAGE_KEY } from './languages'

afterEach(() => {
  setStrings(en)
  document.documentElement.lang = 'en'
})

describe.each([
  ['en', en, { wait1: '1 second', wait30: '30 seconds', wait120: '2 minutes', hours2: '2 hours', day1: '1 day', days3: '3 days', eta3: 'About 3 min', eta80: 'About 1 h 20 min', km: '2.5 km' }],
  ['hi', hi, { wait1: '1 सेकंड', wait30: '30 सेकंड', wait120: '2 मिनट', hours2: '2 घंटे', day1: '1 दिन', days3: '3 दिन', eta3: 'करीब 3 मिनट', eta80: 'करीब 1 घंटे 20 मिनट', km: '2.5 कि॰मी॰' }],
  ['pa', pa, { wait1: '1 ਸਕਿੰਟ', wait30: '30 ਸਕਿੰਟ', wait120: '2 ਮਿੰਟ', hours2: '2 ਘੰਟੇ', day1: '1 ਦਿਨ', days3: '3 ਦਿਨ', eta3: 'ਲਗਭਗ 3 ਮਿੰਟ', eta80: 'ਲਗਭਗ 1 ਘੰਟੇ 20 ਮਿੰਟ', km: '2.5 ਕਿ.ਮੀ.' }],
])('in %s', (_name, catalogue, want) => {
  it('plurals: waits, hours and days', () => {
    setStrings(catalogue)
    expect(formatWait(1)).toBe(want.wait1)
    expect(formatWait(30)).toBe(want.wait30)
    expect(formatWait(120)).toBe(want.wait120)
    expect(formatWait(2 * 3600)).toBe(want.hours2)
    expect(formatAge(24 * 3600_000)).toBe(want.day1)
    expect(formatAge(3 * 24 * 3600_000)).toBe(want.days3)
  })

  it('durations and distances (km, 1 decimal)', () => {
    setStrings(catalogue)
    expect(formatEta(3.2)).toBe(want.eta3)
    expect(formatEta(80)).toBe(want.eta80)
    expect(formatDistance(2.46).replace(/\s/g, ' ')).toBe(want.km)
    expect(formatDistance(null)).toBe(catalogue.units.unknown)
  })

  it('dates and times with Intl in the language and the browser’s time zone', () => {
    setStrings(catalogue)
    const iso = '2026-11-27T14:05:00Z'
    const d = new Date(iso)
    expect(formatTime(iso)).toBe(d.toLocaleTimeString(catalogue.locale, { hour: '2-digit', minute: '2-digit' }))
    expect(formatDate(iso)).toBe(d.toLocaleDateString(catalogue.locale, { year: 'numeric', month: 'long', day: 'numeric' }))
  })
})

it('writes the month in the language’s own script', () => {
  setStrings(hi)
  expect(formatDate('2026-11-27T12:00:00Z')).toMatch(/नवंबर/)
  setStrings(pa)
  expect(formatDate('2026-11-27T12:00:00Z')).toMatch(/ਨਵੰਬਰ/)
})

describe('the first language', () => {
  it('is the first of the browser’s languages we have, else English', () => {
    expect(fromBrowser(['pa-IN', 'hi'])).toBe('pa')
    expect(fromBrowser(['fr-FR', 'hi-IN', 'en'])).toBe('hi')
    expect(fromBrowser(['fr', 'de'])).toBe('en')
    expect(fromBrowser([])).toBe('en')
  })

  it('is the one picked on this device over the browser’s', () => {
    localStorage.setItem(STORAGE_KEY, 'pa')
    expect(initialLanguage()).toBe('pa')
    localStorage.setItem(STORAGE_KEY, 'xx')
    expect(initialLanguage()).toBe(fromBrowser(navigator.languages))
  })
})

describe('the picker', () => {
  afterEach(() => applyLanguage('en'))

  it('changes every text at once, sets <html lang>, and is remembered on the device', async () => {
    const user = userEvent.setup()
    render(<LanguagePicker showLabel />)
    await user.selectOptions(screen.getByLabelText('Language'), 'हिन्दी')
    expect(await screen.findByLabelText('भाषा')).toHaveValue('hi')
    expect(currentLanguage()).toBe('hi')
    expect(S.emergency.send).toBe(hi.emergency.send)
    expect(document.documentElement.lang).toBe('hi')
    expect(document.title).toBe(hi.appTitle)
    expect(localStorage.getItem(STORAGE_KEY)).toBe('hi')
    await user.selectOptions(screen.getByLabelText('भाषा'), 'ਪੰਜਾਬੀ')
    expect(await screen.findByLabelText('ਭਾਸ਼ਾ')).toHaveValue('pa')
    expect(document.documentElement.lang).toBe('pa')
  })
})

describe('server errors', () => {
  const error = (status: number, body: object) => new ApiError((body as { message: string }).message, status, 'http', (body as { field?: string }).field, undefined, body)

  it('in English: the server’s message, as before', () => {
    expect(messageOf(error(409, { message: 'Ambulance is not available', code: 'ambulanceTaken' }), 'x')).toBe('Ambulance is not available')
  })

  it('in Hindi and Punjabi: said from the code, the field named for `invalid`', () => {
    setStrings(hi)
    expect(messageOf(error(409, { message: 'Ambulance is not available', code: 'ambulanceTaken' }), 'x')).toBe(hi.errors.ambulanceTaken)
    expect(messageOf(error(400, { message: 'age must be 0-150', code: 'invalid', field: 'age' }), 'x')).toBe('उम्र जाँचें।')
    expect(messageOf(error(400, { message: 'bad thing', code: 'invalid', field: 'somethingNew' }), 'x')).toBe(hi.errors.invalidNoField)
    expect(messageOf(error(400, { message: 'patient.gender: unknown variant', code: 'invalid', field: 'patient.gender' }), 'x')).toBe('लिंग जाँचें।')
    setStrings(pa)
    expect(messageOf(error(409, { message: 'Username already exists', code: 'usernameTaken' }), 'x')).toBe(pa.errors.usernameTaken)
  })

  it('an unknown code, or none, falls back to the server’s English', () => {
    setStrings(hi)
    expect(messageOf(error(409, { message: 'Something new', code: 'brandNew' }), 'x')).toBe('Something new')
    expect(messageOf(error(404, { message: 'Not found here' }), 'x')).toBe('Not found here')
  })
})

describe('notifications', () => {
  it('are worded in the chosen language, with its lang', () => {
    setStrings(pa)
    const note = notificationFor({ kind: 'TRIP', bookingId: 12, tripStage: 'AT_PICKUP', ambulanceNumber: 'PB-03' })
    expect(note).toMatchObject({ show: true, title: pa.push.notify.arrived, options: { lang: 'pa' } })
    expect(note.show && note.options.body).toBe(`${pa.alerts.booking(12)} · ${pa.push.notify.arrivedBody('PB-03')}`)
  })
})

describe('booking statuses', () => {
  it('are the spec’s codes in English and words in hi and pa, in the admin’s dropdown too', () => {
    const pending = booking(7, { bookingStatus: 'PENDING', moves: ['ACTIVE', 'CANCELLED'] })
    const options = () => screen.getAllByRole('option').map((o) => [o.getAttribute('value'), o.textContent])
    const { unmount } = render(<BookingStatusSelect booking={pending} disabled={false} onChange={() => {}} />)
    expect(options()).toEqual([['PENDING', 'PENDING'], ['ACTIVE', 'ACTIVE'], ['CANCELLED', 'CANCELLED']])
    unmount()
    setStrings(hi)
    render(<BookingStatusSelect booking={pending} disabled={false} onChange={() => {}} />)
    expect(options()).toEqual([['PENDING', hi.bookingStatus.PENDING], ['ACTIVE', hi.bookingStatus.ACTIVE], ['CANCELLED', hi.bookingStatus.CANCELLED]])
    setStrings(pa)
    expect(bookingStatusText('COMPLETED')).toBe(pa.bookingStatus.COMPLETED)
    expect(bookingStatusText('SOMETHING_NEW')).toBe('SOMETHING_NEW')
  })
})
