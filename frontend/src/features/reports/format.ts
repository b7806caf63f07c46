// How the report writes its numbers, in the chosen language.
import { S } from '@/strings'
import { R } from './strings'

/** Seconds as "45 s", "10 min 30 s" (whole seconds); '—' for none. */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return R().noFigure
  const s = Math.max(0, Math.round(seconds))
  return R().duration(Math.floor(s / 60), s % 60)
}

/** A share from 0 to 1 as a whole percentage in the chosen language; '—' for none. */
export function formatShare(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return R().noFigure
  return new Intl.NumberFormat(S.locale, { style: 'percent', maximumFractionDigits: 0 }).format(share)
}

export function formatCount(n: number): string {
  return new Intl.NumberFormat(S.locale).format(n)
}

/** A date of the report (YYYY-MM-DD) as the chosen language writes a short date. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number)
  if (!y || !m || !d) return day
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(S.locale, { timeZone: 'UTC', day: 'numeric', month: 'short' })
}
