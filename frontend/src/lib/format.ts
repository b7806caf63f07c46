// Numbers, distances, times and durations in the chosen language (S.locale, with Intl)
// and the browser's time zone; the words come from the catalogue.
import { S } from '@/strings'

const numberFormats = new Map<string, Intl.NumberFormat>()
/** Kilometres with 1 decimal in `locale` ("2.5 km", "2.5 कि॰मी॰"). */
function kmFormat(locale: string) {
  let f = numberFormats.get(locale)
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer', minimumFractionDigits: 1, maximumFractionDigits: 1 })
    numberFormats.set(locale, f)
  }
  return f
}

export function formatDistance(km: number | null | undefined): string {
  return typeof km === 'number' && Number.isFinite(km) ? kmFormat(S.locale).format(km) : S.units.unknown
}

export function formatCoord(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(4) : '—'
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString(S.locale)
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime())
    ? '—'
    : d.toLocaleDateString(S.locale, { year: 'numeric', month: 'long', day: 'numeric' })
}

// Getters, so that each read is in the language of the moment.
export const ambulanceTypeLabel: Readonly<Record<string, string>> = {
  get BLS() { return S.ambulanceType.BLS },
  get ALS() { return S.ambulanceType.ALS },
  get PTA() { return S.ambulanceType.PTA },
}

export const ambulanceStatusLabel: Readonly<Record<string, string>> = {
  get AVAILABLE() { return S.ambulanceStatus.AVAILABLE },
  get ON_DUTY() { return S.ambulanceStatus.ON_DUTY },
  get MAINTENANCE() { return S.ambulanceStatus.MAINTENANCE },
}

/** A booking's status: the code itself in English (as the spec shows it), the word in hi and pa. */
export const bookingStatusText = (status: string): string =>
  S.locale === 'en' ? status : ((S.bookingStatus as Record<string, string>)[status] ?? status)

/** A tap-to-call link for a phone number as typed ("+91 95881 18850"). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/\s+/g, '')}`
}

/** A wait a person can act on: "30 seconds", "2 minutes", or "a moment" when unknown. */
export function formatWait(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return S.units.aMoment
  const s = Math.max(1, Math.ceil(seconds))
  if (s < 60) return S.units.seconds(s)
  const m = Math.ceil(s / 60)
  if (m < 60) return S.units.minutes(m)
  return S.units.hours(Math.ceil(m / 60))
}

/** How long ago, in the largest whole unit: "12 s", "4 min", "2 h 5 min", "3 days". */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return S.units.ageSeconds(s)
  const m = Math.floor(s / 60)
  if (m < 60) return S.units.ageMinutes(m)
  const h = Math.floor(m / 60)
  if (h < 24) return S.units.ageHours(h, m % 60)
  return S.units.ageDays(Math.floor(h / 24))
}

/** An ETA in minutes: "Less than a minute", "About 7 min", "About 1 h 20 min"; "Unknown" without one. */
export function formatEta(minutes: number | null | undefined): string {
  if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < 0) return S.units.unknown
  if (minutes < 1) return S.units.lessThanMinute
  const m = Math.round(minutes)
  if (m < 60) return S.units.aboutMinutes(m)
  return S.units.aboutHours(Math.floor(m / 60), m % 60)
}

/** A clock time for a timeline ("14:05"), or "—". */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleTimeString(S.locale, { hour: '2-digit', minute: '2-digit' })
}
