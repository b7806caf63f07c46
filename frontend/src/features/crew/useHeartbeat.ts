import { useEffect } from 'react'
import { call } from '@/lib/api'
import { PUSHED_MESSAGE } from '@/lib/push/messages'

/**
 * How often the crew's screen says "we are here" (decision 0020): the server counts a crew
 * ONLINE for 2 minutes after a device's last heartbeat or position report, and the contract asks
 * for one at least every 60 s. Half of that leaves room for one lost request, and for a hidden
 * tab, whose timers browsers slow to about once a minute.
 */
export const HEARTBEAT_EVERY_MS = 30_000

/**
 * While this screen is open and its ambulance `onDuty` (not in MAINTENANCE): PUT /api/crew/presence
 * at once, then every 30 s, and again whenever the screen is shown again, the phone is back online,
 * or a push woke the app (the service worker tells the open windows). With the screen off a web
 * page runs no timers for long: the crew screen keeps the screen awake where it can
 * (useWakeLock), and otherwise the ambulance honestly goes OFFLINE after 2 minutes, so that a
 * dispatcher phones instead of the service waiting on a crew that cannot hear it.
 */
export function useHeartbeat(onDuty: boolean) {
  useEffect(() => {
    if (!onDuty) return
    const beat = () => {
      // A failed beat is tried again at the next tick; the position reports count too.
      call('PUT /crew/presence').catch(() => undefined)
    }
    const onVisible = () => {
      if (document.visibilityState === 'visible') beat()
    }
    const onMessage = (e: MessageEvent) => {
      if ((e.data as { type?: unknown } | null)?.type === PUSHED_MESSAGE) beat()
    }
    beat()
    const timer = setInterval(beat, HEARTBEAT_EVERY_MS)
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('online', beat)
    navigator.serviceWorker?.addEventListener('message', onMessage)
    return () => {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', onVisible)
      window.removeEventListener('online', beat)
      navigator.serviceWorker?.removeEventListener('message', onMessage)
    }
  }, [onDuty])
}
