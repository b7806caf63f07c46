export function formatDistance(km: number | null | undefined): string {
  return typeof km === 'number' && Number.isFinite(km) ? `${km.toFixed(1)} km` : 'Unknown'
}

export function formatCoord(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(4) : '—'
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString()
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime())
    ? '—'
    : d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })
}

export const ambulanceTypeLabel: Record<string, string> = {
  BLS: 'Basic life support',
  ALS: 'Advanced life support',
  PTA: 'Patient transport',
}

export const ambulanceStatusLabel: Record<string, string> = {
  AVAILABLE: 'Available',
  ON_DUTY: 'On Duty',
  MAINTENANCE: 'Maintenance',
}

/** A tap-to-call link for a phone number as typed ("+91 95881 18850"). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/\s+/g, '')}`
}

/** A wait a person can act on: "30 seconds", "2 minutes", or "a moment" when unknown. */
export function formatWait(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return 'a moment'
  const s = Math.max(1, Math.ceil(seconds))
  if (s < 60) return s === 1 ? '1 second' : `${s} seconds`
  const m = Math.ceil(s / 60)
  if (m < 60) return m === 1 ? '1 minute' : `${m} minutes`
  const h = Math.ceil(m / 60)
  return h === 1 ? '1 hour' : `${h} hours`
}

/** How long ago, in the largest whole unit: "12 s", "4 min", "2 h 5 min", "3 days". */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min`
  const h = Math.floor(m / 60)
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`
  const d = Math.floor(h / 24)
  return d === 1 ? '1 day' : `${d} days`
}

/** An ETA in minutes: "Less than a minute", "About 7 min", "About 1 h 20 min"; "Unknown" without one. */
export function formatEta(minutes: number | null | undefined): string {
  if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < 0) return 'Unknown'
  if (minutes < 1) return 'Less than a minute'
  const m = Math.round(minutes)
  if (m < 60) return `About ${m} min`
  return m % 60 ? `About ${Math.floor(m / 60)} h ${m % 60} min` : `About ${m / 60} h`
}

/** A clock time for a timeline ("14:05"), or "—". */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
}
