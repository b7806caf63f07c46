import { useEffect, useState } from 'react'

export type WakeLockState = 'unsupported' | 'off' | 'held'

/**
 * Keeps the screen on while `active` and the page is shown (Screen Wake Lock API). The
 * browser lets go whenever the page is hidden; it is taken again when the page is back.
 * A refusal (battery saver, an old browser) leaves it 'off': the screen still works.
 */
export function useWakeLock(active: boolean): WakeLockState {
  const supported = typeof navigator !== 'undefined' && 'wakeLock' in navigator
  const [held, setHeld] = useState(false)
  useEffect(() => {
    if (!active || !supported) return
    let sentinel: WakeLockSentinel | null = null
    let stopped = false
    const take = () => {
      if (stopped || sentinel || document.visibilityState !== 'visible') return
      navigator.wakeLock
        .request('screen')
        .then((lock) => {
          if (stopped) return void lock.release()
          sentinel = lock
          setHeld(true)
          lock.addEventListener('release', () => {
            sentinel = null
            setHeld(false)
          })
        })
        .catch(() => setHeld(false))
    }
    take()
    document.addEventListener('visibilitychange', take)
    return () => {
      stopped = true
      document.removeEventListener('visibilitychange', take)
      void sentinel?.release()
    }
  }, [active, supported])
  if (!supported) return 'unsupported'
  return active && held ? 'held' : 'off'
}
