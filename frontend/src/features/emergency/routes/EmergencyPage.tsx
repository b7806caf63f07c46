import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { CallEmergency } from '@/components/CallEmergency'
import { Alert } from '@/components/Feedback'
import { HoldButton } from '@/components/HoldButton'
import { Icon } from '@/components/Icon'
import { ApiError, messageOf, outcomeUnknown } from '@/lib/api'
import { formatWait } from '@/lib/format'
import type { PickupRequest } from '@/lib/types'
import { useSession } from '@/lib/session'
import { S } from '@/strings'
import { PickupField } from '@/features/booking'
import { conflictOf, EMERGENCY_RETRIES, useSendEmergency } from '../api/emergency'
import { NoAmbulance } from '../components/NoAmbulance'
import { pendingEmergency, pendingOr } from '../pending'
import { useEmergencyPickup, type Locating, type PickupSource } from '../useEmergencyPickup'

/**
 * /emergency: one confirmation (hold the button) sends the nearest free ambulance to
 * the phone's position (else the profile's location, else the pin), then the trip's
 * page. The call button stays on screen whatever happens; every failure says what next.
 */
export default function EmergencyPage() {
  const user = useSession()?.user
  const profile = user?.latitude != null && user.longitude != null ? { latitude: user.latitude, longitude: user.longitude } : null
  const navigate = useNavigate()
  const send = useSendEmergency()
  // Held before the position was known: sent the moment it is.
  const [queued, setQueued] = useState(false)
  const [queueFailed, setQueueFailed] = useState(false)
  const [earlier] = useState(() => pendingEmergency() !== null)

  const dispatch = (pickup: PickupRequest) => {
    setQueueFailed(false)
    send.mutate(pendingOr({ pickup }), {
      onSuccess: (booking) => navigate(`/bookings/${booking.id}`, { replace: true, state: { dispatched: true } }),
    })
  }
  const place = useEmergencyPickup(profile, {
    onLocated: (pickup) => {
      if (!queued) return
      setQueued(false)
      dispatch(pickup)
    },
    onFailed: () => {
      if (!queued) return
      setQueued(false)
      setQueueFailed(true)
    },
  })
  const confirm = () => {
    if (place.pickup) dispatch(place.pickup)
    else if (place.locating.state === 'locating') setQueued(true)
  }

  const serverPickupError = send.error instanceof ApiError && send.error.status === 400 && send.error.field?.startsWith('pickup')
  const pickupMessage = place.pickupError ?? (serverPickupError ? messageOf(send.error, S.emergency.failed) : null)
  const canHold = place.pickup !== null || (place.locating.state === 'locating' && !place.pickupError)

  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <div>
        <h1 className="text-3xl font-extrabold">{S.emergency.title}</h1>
        <p className="mt-1 text-slate-600">{S.emergency.intro}</p>
      </div>
      {earlier && send.isIdle && <Alert tone="info">{S.emergency.earlier}</Alert>}
      <PickupStatus source={place.source} locating={place.locating} />
      <HoldButton
        label={S.emergency.hold}
        holdingLabel={S.emergency.holding}
        busyLabel={S.emergency.sending}
        hint={S.emergency.holdHint}
        confirmLabel={S.emergency.confirm}
        cancelLabel={S.emergency.cancel}
        busy={send.isPending || queued}
        disabled={!canHold}
        icon={<Icon name="ambulance" className="h-7 w-7 shrink-0" />}
        onConfirm={confirm}
      />
      <CallEmergency className="btn-touch w-full border-2 border-brand-600 bg-white text-lg text-brand-700 hover:bg-brand-50" />
      {send.isPending ? (
        <Alert tone="info">
          {send.isPaused
            ? S.emergency.offline
            : send.failureCount > 0
              ? S.emergency.retrying(send.failureCount + 1, EMERGENCY_RETRIES + 1)
              : S.emergency.sendingNow}
        </Alert>
      ) : queued ? (
        <Alert tone="info">{S.emergency.queued}</Alert>
      ) : queueFailed ? (
        <Alert tone="warning">{S.emergency.queuedFailed}</Alert>
      ) : send.isError ? (
        <Failure error={send.error} onRetry={confirm} />
      ) : null}
      <section aria-labelledby="pickup-heading" className="card space-y-3 p-5">
        <h2 id="pickup-heading" className="text-lg font-semibold">{S.emergency.adjustPickup}</h2>
        <PickupField
          idPrefix="emergency"
          value={place.form}
          invalid={pickupMessage ? ['pickup'] : []}
          error={pickupMessage}
          near={profile ? [profile.latitude, profile.longitude] : undefined}
          noPinHelp={S.emergency.noPinYet}
          onChange={(patch) => {
            // A pin placed by hand is the pickup now: a queued request waits for another hold.
            if (patch.latitude !== undefined || patch.longitude !== undefined) setQueued(false)
            place.change(patch)
          }}
        />
      </section>
    </div>
  )
}

/** Where the pickup comes from, or what is missing. */
function PickupStatus({ source, locating }: { source: PickupSource | null; locating: Locating }) {
  if (source === null && locating.state === 'locating') {
    return (
      <div role="status" className="card flex items-start gap-3 p-4">
        <span className="mt-1 h-5 w-5 shrink-0 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-hidden="true" />
        <p>
          <span className="font-semibold">{S.emergency.locating}</span>
          <span className="block text-sm text-slate-600">{S.emergency.locatingNote}</span>
        </p>
      </div>
    )
  }
  const why = locating.state === 'failed' ? `${S.emergency.geoFailed[locating.kind]} ` : ''
  const accuracy = locating.state === 'found' && locating.accuracy !== undefined && locating.accuracy > 0 ? `${Math.round(locating.accuracy)}\u00a0m` : null
  const text =
    source === 'gps'
      ? S.emergency.fromGps(accuracy)
      : source === 'profile'
        ? why + S.emergency.fromProfile
        : source === 'pin'
          ? S.emergency.fromPin
          : why + S.emergency.needPin
  return (
    <p role="status" className={`card flex items-start gap-3 p-4 ${source === null ? 'border-amber-300 bg-amber-50 text-amber-900' : ''}`}>
      <Icon name="pin" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
      <span>{text}</span>
    </p>
  )
}

/** What went wrong, and what to do next. */
function Failure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const conflict = conflictOf(error)
  if (conflict && Array.isArray(conflict.hospitals)) {
    return <NoAmbulance message={(S.locale === 'en' && conflict.message) || S.emergency.noAmbulance} hospitals={conflict.hospitals} onRetry={onRetry} />
  }
  if (conflict) {
    return (
      <Alert tone="error">
        <p>{(S.locale === 'en' && conflict.message) || S.emergency.openEmergency}</p>
        <Link to={conflict.bookingId ? `/bookings/${conflict.bookingId}` : '/history'} className="mt-2 inline-block font-semibold underline">
          {conflict.bookingId ? S.emergency.followIt(conflict.bookingId) : S.emergency.seeBookings}
        </Link>
      </Alert>
    )
  }
  const unknown = outcomeUnknown(error) || (error instanceof ApiError && error.status >= 500)
  const badInput = error instanceof ApiError && error.status === 400
  const limited = error instanceof ApiError && error.status === 429
  return (
    <div className="space-y-3">
      <Alert tone="error">
        {unknown ? S.emergency.noAnswer : limited ? S.emergency.limited(formatWait(error.retryAfter)) : messageOf(error, S.emergency.failed)}
        {badInput && <span className="mt-1 block">{S.emergency.checkPickup}</span>}
      </Alert>
      {!badInput && (
        <button type="button" className="btn-secondary" onClick={onRetry}>{S.emergency.tryAgain}</button>
      )}
    </div>
  )
}
