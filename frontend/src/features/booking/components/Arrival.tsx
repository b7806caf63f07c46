import type { Catalogue } from '@/i18n/en'
import { formatDistance, formatEta } from '@/lib/format'
import type { Freshness } from '@/lib/position'
import { S } from '@/strings'
import type { Tracking } from '@/lib/types'
import { isOpen } from '@/lib/trip/status'
import { type Leg, drivingTo, legOf } from '@/lib/trip/stages'

/** What the ETA card needs: the owner's tracking has all of it, the shared view all but the distance. */
export type ArrivalTrip = Pick<Tracking, 'bookingStatus' | 'tripStage' | 'etaMinutes' | 'accepted'> & { distanceKm?: number | null }

type TrackingTexts = Catalogue['tracking']
/** A message of the catalogue's `tracking` that is text (not a function). */
type TrackingText = { [K in keyof TrackingTexts]: TrackingTexts[K] extends string ? K : never }[keyof TrackingTexts]

/** What the card is headed at each leg of the trip, before it ends. */
const legHeading: Readonly<Record<Leg, TrackingText>> = {
  toPickup: 'etaToPickup',
  atPickup: 'atPickup',
  toHospital: 'etaToHospital',
  atHospital: 'atHospital',
  handedOver: 'handedOver',
}

/**
 * When the ambulance comes (or where the trip stands), and how far to trust its position.
 * Once the booking is final the server sends no position or ETA (docs/requirements.md, "Tracking and family link"): how it ended, and why
 * the ambulance is gone from the map.
 */
export function Arrival({ trip, fresh }: { trip: ArrivalTrip; fresh: Freshness }) {
  const stage = trip.bookingStatus === 'ACTIVE' ? trip.tripStage : null
  const leg = stage ? legOf(stage) : 'toPickup'
  const heading =
    trip.bookingStatus === 'COMPLETED'
      ? S.tracking.completed
      : trip.bookingStatus === 'CANCELLED'
        ? S.tracking.cancelled
        : // Until its crew accepts, the ambulance has not set off (decision 0020).
          leg === 'toPickup' && !trip.accepted
          ? S.tracking.etaOnceAccepted
          : S.tracking[legHeading[leg]]
  // An ETA while the ambulance drives somewhere (and while PENDING: to the pickup once accepted).
  const counting = trip.bookingStatus === 'PENDING' || (stage != null && drivingTo(stage) !== null)
  const open = isOpen(trip.bookingStatus)
  const tone = { live: 'bg-green-500', lastKnown: 'bg-amber-500', stale: 'bg-amber-500', standIn: 'bg-slate-400' }[fresh.kind]

  return (
    <section aria-labelledby="eta-heading" className="card space-y-2 p-5">
      <h2 id="eta-heading" className="text-sm font-medium text-slate-600">{heading}</h2>
      {counting &&
        (trip.etaMinutes !== null ? (
          <p className="text-3xl font-bold text-slate-900">
            {formatEta(trip.etaMinutes)}
            {trip.distanceKm != null && <span className="block text-base font-medium text-slate-600">{S.tracking.distance(formatDistance(trip.distanceKm))}</span>}
          </p>
        ) : (
          <p className="font-medium text-slate-800">{fresh.kind === 'standIn' ? S.tracking.noEtaNever : S.tracking.noEtaStale}</p>
        ))}
      {!open && <p className="text-slate-800">{S.tracking.ended}</p>}
      {open && (
        <p className={`flex items-start gap-2 text-sm ${fresh.kind === 'stale' ? 'font-medium text-amber-900' : 'text-slate-600'}`}>
          <span className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${tone}`} aria-hidden="true" /> {fresh.text}
        </p>
      )}
    </section>
  )
}
