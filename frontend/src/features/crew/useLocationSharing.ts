import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from '@/lib/api'
import { reportLocation } from './api/crew'
import { HEARTBEAT_MS, shouldReport, TRIP_INTERVAL_MS, type Fix, type Sent } from './throttle'

/** What the crew's screen says about the location it shares. */
export type SharingState = 'unsupported' | 'denied' | 'unavailable' | 'locating' | 'sharing' | 'failing' | 'checking'

const toFix = (pos: GeolocationPosition): Fix => ({
  latitude: pos.coords.latitude,
  longitude: pos.coords.longitude,
  accuracyM: Number.isFinite(pos.coords.accuracy) ? Math.round(pos.coords.accuracy) : undefined,
  // Some browsers give no timestamp for an emulated position.
  at: pos.timestamp || Date.now(),
})

/**
 * Sends the phone's position (watchPosition) to PUT /api/crew/location as the throttle
 * allows. Every 5 s a fix held back by the throttle is offered again (it may go now),
 * and a phone that has not moved is asked for a fresh fix once a heartbeat is due.
 */
export function useLocationSharing(onTrip: boolean) {
  const supported = typeof navigator !== 'undefined' && 'geolocation' in navigator
  const [state, setState] = useState<SharingState>(supported ? 'locating' : 'unsupported')
  const [lastSentAt, setLastSentAt] = useState<number | null>(null)
  const lastSent = useRef<Sent | null>(null)
  const latest = useRef<Fix | null>(null)
  const sending = useRef(false)
  const onTripRef = useRef(onTrip)
  useEffect(() => {
    onTripRef.current = onTrip
  }, [onTrip])

  const offer = useCallback(async (fix: Fix) => {
    latest.current = fix
    if (sending.current || !shouldReport(lastSent.current, fix, Date.now(), onTripRef.current)) return
    sending.current = true
    try {
      await reportLocation({
        latitude: fix.latitude,
        longitude: fix.longitude,
        ...(fix.accuracyM !== undefined ? { accuracyM: fix.accuracyM } : {}),
        recordedAt: new Date(fix.at).toISOString(),
      })
      const sentAt = Date.now()
      lastSent.current = { ...fix, sentAt }
      setLastSentAt(sentAt)
      setState('sharing')
    } catch (err) {
      // Tried again with the next fix or tick. A 409: the server keeps the position but
      // doubts it (too fast, too far from the hospital for a first fix, too imprecise;
      // decision 0020) until agreeing reports confirm it, which these retries are.
      setState(err instanceof ApiError && err.status === 409 ? 'checking' : 'failing')
    } finally {
      sending.current = false
    }
  }, [])

  useEffect(() => {
    if (!supported) return
    const geo = navigator.geolocation
    const onError = (err: GeolocationPositionError) => setState(err.code === err.PERMISSION_DENIED ? 'denied' : 'unavailable')
    const onPosition = (pos: GeolocationPosition) => {
      // Found again after a lost fix: still sharing if a report went before, even when
      // the throttle holds this one back ("Finding" would read as never sent).
      setState((s) => (s === 'sharing' || s === 'failing' || s === 'checking' ? s : lastSent.current ? 'sharing' : 'locating'))
      void offer(toFix(pos))
    }
    const watch = geo.watchPosition(onPosition, onError, { enableHighAccuracy: true, maximumAge: 5000, timeout: 30000 })
    const tick = setInterval(() => {
      const sent = lastSent.current
      if (sent && Date.now() - sent.sentAt >= HEARTBEAT_MS) {
        geo.getCurrentPosition(onPosition, onError, { enableHighAccuracy: true, maximumAge: 0, timeout: 30000 })
      } else if (latest.current && latest.current !== sent) {
        void offer(latest.current)
      }
    }, TRIP_INTERVAL_MS)
    return () => {
      geo.clearWatch(watch)
      clearInterval(tick)
    }
  }, [supported, offer])

  return { state, lastSentAt }
}
