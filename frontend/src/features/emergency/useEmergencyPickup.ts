import { useCallback, useEffect, useRef, useState } from 'react'
import type { PickupRequest } from '@/lib/types'
import { currentPosition, GeoError, type GeoFailure } from '@/lib/geolocation'
import { emptyPickup, parsePickup, type PickupForm } from '@/features/booking'

/** Where the pickup came from: the phone's position, the profile's location, or a pin the person placed. */
export type PickupSource = 'gps' | 'profile' | 'pin'

export type Locating = { state: 'locating' } | { state: 'found'; accuracy?: number } | { state: 'failed'; kind: GeoFailure }

interface Place {
  latitude: number
  longitude: number
}

/** A fresh fix is worth more than an old one: an emergency may be far from where the phone last was. */
const GEO_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 15000, maximumAge: 30000 }

const asForm = (p: Place, landmark: string): PickupForm => ({
  latitude: p.latitude.toFixed(6),
  longitude: p.longitude.toFixed(6),
  landmark,
})

/**
 * The emergency's pickup: asks the phone for its position at once; if it cannot tell,
 * the profile's location; else nothing until the person places the pin. A pin the
 * person moved (or typed) wins over a position found later. `onLocated` hears of the
 * phone's position when it became the pickup, `onFailed` when there is none.
 */
export function useEmergencyPickup(
  profile: Place | null,
  listeners: { onLocated?: (pickup: PickupRequest) => void; onFailed?: () => void } = {},
) {
  const [form, setForm] = useState<PickupForm>(emptyPickup)
  const [source, setSource] = useState<PickupSource | null>(null)
  const [locating, setLocating] = useState<Locating>({ state: 'locating' })
  const moved = useRef(false)
  // The landmark as typed so far, for a pickup sent the moment the position arrives.
  const landmark = useRef('')
  // The latest of what the effect below needs, without asking the phone again when it changes.
  const latest = useRef({ profile, listeners })
  useEffect(() => {
    latest.current = { profile, listeners }
  })

  useEffect(() => {
    let live = true
    currentPosition(GEO_OPTIONS).then(
      (fix) => {
        if (!live) return
        setLocating({ state: 'found', accuracy: fix.accuracy })
        if (moved.current) return
        setForm(asForm(fix, landmark.current))
        setSource('gps')
        const pickup = parsePickup(asForm(fix, landmark.current)).value
        if (pickup) latest.current.listeners.onLocated?.(pickup)
      },
      (error: unknown) => {
        if (!live) return
        setLocating({ state: 'failed', kind: error instanceof GeoError ? error.kind : 'unavailable' })
        const home = latest.current.profile
        if (!moved.current && home) {
          setForm(asForm(home, landmark.current))
          setSource('profile')
        }
        latest.current.listeners.onFailed?.()
      },
    )
    return () => {
      live = false
    }
  }, [])

  /** From the pickup field: a moved pin or typed coordinates become the pickup; a landmark only adds to it. */
  const change = useCallback((patch: Partial<PickupForm>) => {
    if (patch.latitude !== undefined || patch.longitude !== undefined) {
      moved.current = true
      setSource('pin')
    }
    if (patch.landmark !== undefined) landmark.current = patch.landmark
    setForm((f) => ({ ...f, ...patch }))
  }, [])

  const parsed = parsePickup(form)
  // A landmark typed before there is a point is kept for it, not an error.
  const placed = form.latitude.trim() !== '' || form.longitude.trim() !== ''
  return { form, change, source, locating, pickup: parsed.value ?? null, pickupError: placed ? (parsed.error ?? null) : null }
}
