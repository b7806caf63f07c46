// The server's emergency number reaching this device (docs/decisions/0018-settings-without-a-
// deploy.md): asked once the first screen is up (never before it: a call button waits for
// nothing) and again when the app comes back to the foreground after a while; kept on the
// device by setEmergencyNumber, so the next start, offline too, dials it from the first paint.
import { call } from '@/lib/api'
import { setEmergencyNumber } from '@/lib/liveEmergencyNumber'

/** A foreground return asks again when the last answer is older than this. */
export const ASK_AGAIN_AFTER_MS = 10 * 60_000

let askedAt = Number.NEGATIVE_INFINITY

/** Asks the server (without anyone's token: the number is public); offline, nothing changes. */
export async function askEmergencyNumber(now = Date.now()): Promise<void> {
  askedAt = now
  try {
    const answer = await call('GET /hospitals/emergency-number', { anonymous: true })
    setEmergencyNumber(answer.emergencyNumber)
  } catch {
    // Offline or the server unreachable: the number kept on the device serves.
  }
}

/** Asks now, and on each return to the foreground once the last answer is old. */
export function followEmergencyNumber(): void {
  void askEmergencyNumber()
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - askedAt > ASK_AGAIN_AFTER_MS) void askEmergencyNumber()
  })
}
