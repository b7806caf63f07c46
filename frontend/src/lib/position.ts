import { S } from '@/strings'
import type { Position } from './types'
import { formatAge } from './format'

/** Older than this, a position is stale: shown as the last known one, never as live. */
export const STALE_AFTER_MS = 2 * 60_000

export type Freshness =
  | { kind: 'live'; ageMs: number; text: string }
  | { kind: 'stale'; ageMs: number; text: string }
  | { kind: 'standIn'; text: string }

/**
 * How far to trust an ambulance's position at `now`: live (reported in the last 2
 * minutes), stale (older; the server's `stale`, or aged since it answered), or never
 * reported (null, or its hospital standing in).
 */
export function freshness(position: Position | null | undefined, now: number): Freshness {
  const at = position?.at ? Date.parse(position.at) : Number.NaN
  if (!position || position.source === 'HOSPITAL' || !Number.isFinite(at)) {
    return { kind: 'standIn', text: S.position.standIn }
  }
  const ageMs = Math.max(0, now - at)
  if (position.stale || ageMs > STALE_AFTER_MS) return { kind: 'stale', ageMs, text: S.position.stale(formatAge(ageMs)) }
  return { kind: 'live', ageMs, text: S.position.live(formatAge(ageMs)) }
}
