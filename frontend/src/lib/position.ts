import { S } from '@/strings'
import type { Position } from './types'
import { formatAge } from './format'

/** Older than this, a position is stale: shown as the last known one, never as live. */
export const STALE_AFTER_MS = 2 * 60_000

/** Polls a feed may miss (a slow answer) before what it showed last is no longer live. */
export const MISSED_POLLS = 3

export type Freshness =
  | { kind: 'live'; ageMs: number; text: string }
  | { kind: 'lastKnown'; ageMs: number; text: string }
  | { kind: 'stale'; ageMs: number; text: string }
  | { kind: 'standIn'; text: string }

/** The polling that brought the position: when it last answered, every how many ms it asks, whether the device is online. */
export interface Feed {
  updatedAt: number
  pollMs: number
  online: boolean
}

/**
 * How far to trust an ambulance's position at `now`: live (reported in the last 2
 * minutes, and `feed`, when given, still bringing news), last known (recent, but the
 * device is offline or the feed has missed more than MISSED_POLLS polls: it may have
 * moved since), stale (older than 2 minutes; the server's `stale`, or aged since it
 * answered), or never reported (null, or its hospital standing in).
 */
export function freshness(position: Position | null | undefined, now: number, feed?: Feed): Freshness {
  const at = position?.at ? Date.parse(position.at) : Number.NaN
  if (!position || position.source === 'HOSPITAL' || !Number.isFinite(at)) {
    return { kind: 'standIn', text: S.position.standIn }
  }
  const ageMs = Math.max(0, now - at)
  if (position.stale || ageMs > STALE_AFTER_MS) return { kind: 'stale', ageMs, text: S.position.stale(formatAge(ageMs)) }
  if (feed && (!feed.online || now - feed.updatedAt > MISSED_POLLS * feed.pollMs)) {
    return { kind: 'lastKnown', ageMs, text: S.position.lastKnown(formatAge(ageMs)) }
  }
  return { kind: 'live', ageMs, text: S.position.live(formatAge(ageMs)) }
}
