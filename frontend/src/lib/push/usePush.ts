import { useCallback, useEffect, useRef, useState } from 'react'
import { isDeclined, markDeclined, type PushPurpose } from './device'
import { currentPermission, subscribe } from './client'
import { RENEWED_MESSAGE } from './messages'
import { pushView, type Permission, type PushView, type Sync } from './state'

export interface Push {
  view: PushView
  /** The explained step's button: the browser's prompt (from this tap only), then the subscription. */
  turnOn: () => void
  /** "Not now": this screen does not ask again on this device. */
  notNow: () => void
}

/**
 * Alerts for `purpose` on this device. Never asks by itself: the browser's prompt opens
 * only from `turnOn`. Once allowed, each visit subscribes again without a prompt (the
 * server's PUT is idempotent), which also hands the server a subscription the browser
 * renewed; an open window does so at once when the service worker says it was renewed.
 * `enabled` false: nothing is done (e.g. a finished trip).
 */
export function usePush(purpose: PushPurpose, enabled = true): Push {
  const [permission, setPermission] = useState<Permission>(currentPermission)
  const [declined, setDeclined] = useState(() => isDeclined(purpose))
  const [sync, setSync] = useState<Sync>('idle')
  const running = useRef(false)

  const run = useCallback(() => {
    if (running.current) return
    running.current = true
    setSync('working')
    subscribe()
      .then(() => setSync('done'))
      .catch(() => setSync('failed'))
      .finally(() => {
        running.current = false
      })
  }, [])

  useEffect(() => {
    if (enabled && permission === 'granted' && sync === 'idle') run()
  }, [enabled, permission, sync, run])

  useEffect(() => {
    if (!enabled || permission !== 'granted' || !('serviceWorker' in navigator)) return
    const onMessage = (e: MessageEvent) => {
      if ((e.data as { type?: unknown } | null)?.type === RENEWED_MESSAGE) run()
    }
    const container = navigator.serviceWorker
    container.addEventListener('message', onMessage)
    return () => container.removeEventListener('message', onMessage)
  }, [enabled, permission, run])

  const turnOn = useCallback(() => {
    if (permission === 'unsupported') return
    setSync('working')
    Notification.requestPermission()
      .then((answer) => {
        setPermission(answer)
        if (answer === 'granted') {
          setSync('idle')
          return
        }
        // Closed without an answer counts as a no: the step is not put to them again.
        if (answer === 'default') {
          markDeclined(purpose)
          setDeclined(true)
        }
        setSync('idle')
      })
      .catch(() => setSync('failed'))
  }, [permission, purpose])

  const notNow = useCallback(() => {
    markDeclined(purpose)
    setDeclined(true)
  }, [purpose])

  return { view: pushView({ permission, declined, sync }), turnOn, notNow }
}
