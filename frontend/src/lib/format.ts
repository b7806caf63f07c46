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
