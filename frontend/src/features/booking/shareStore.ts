import type { ShareLink } from '@/lib/types'

// The link made for a booking, kept in this tab (sessionStorage) so that a reload still
// shows it and can stop it; the server never gives a link back (it keeps only its hash).
const keyOf = (bookingId: number) => `share.${bookingId}`

export function storedShareLink(bookingId: number, now = Date.now()): ShareLink | null {
  try {
    const raw = sessionStorage.getItem(keyOf(bookingId))
    const link = raw ? (JSON.parse(raw) as ShareLink) : null
    if (!link || typeof link.url !== 'string' || !(Date.parse(link.expiresAt) > now)) {
      sessionStorage.removeItem(keyOf(bookingId))
      return null
    }
    return link
  } catch {
    return null
  }
}

export function storeShareLink(bookingId: number, link: ShareLink | null) {
  try {
    if (link) sessionStorage.setItem(keyOf(bookingId), JSON.stringify(link))
    else sessionStorage.removeItem(keyOf(bookingId))
  } catch {
    // Not kept across a reload; the link still works.
  }
}
