// How often the crew's phone reports where it is (throttle.ts) when it is not on a trip:
// two build-time settings, unset in production. The end-to-end build sets them short
// (scripts/e2e.sh) so that a test that moves a phone sees its report within seconds
// rather than a minute; vite.config.ts refuses a bad value before building.

/** A moved position off a trip: sent at most this often (seconds). */
export const DEFAULT_IDLE_REPORT_SECS = 60
/** A parked phone still reports this often (seconds): under the 2 minutes after which a position is stale. */
export const DEFAULT_HEARTBEAT_SECS = 100

/** `setting` in seconds, 5 to 100 (the heartbeat must stay under the 2 minutes), or `fallback` when unset. */
export function reportSeconds(name: string, setting: string | undefined, fallback: number): number {
  const value = (setting ?? '').trim()
  if (value === '') return fallback
  const secs = Number(value)
  if (!Number.isInteger(secs) || secs < 5 || secs > 100) throw new Error(`${name} must be a whole number of seconds from 5 to 100, not "${value}"`)
  return secs
}
