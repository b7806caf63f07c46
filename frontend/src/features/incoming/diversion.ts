// When a diversion ends, chosen on the board: the quick choices (1, 2, 4 hours from now)
// or a clock time, its next occurrence (later today, else tomorrow), so the server's rule
// "in the future, at most 24 h ahead" always holds.

/** The quick choices, in hours. */
export const QUICK_HOURS = [1, 2, 4] as const

export const hoursFromNow = (hours: number, now: number): Date => new Date(now + hours * 3_600_000)

/** "HH:MM" (an <input type="time">'s value) as the next such time after `now`, in this device's zone; null if not a time. */
export function nextOccurrence(hhmm: string, now: number): Date | null {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm)
  if (!m) return null
  const [h, min] = [Number(m[1]), Number(m[2])]
  if (h > 23 || min > 59) return null
  const at = new Date(now)
  at.setHours(h, min, 0, 0)
  if (at.getTime() <= now) at.setDate(at.getDate() + 1)
  return at
}
