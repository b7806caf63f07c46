import { Alert } from '@/components/Feedback'
import { CallEmergency } from '@/components/CallEmergency'
import { useNow } from '@/components/LiveClock'
import { HospitalsToCall, type Callable } from '@/components/HospitalsToCall'
import { useNearestHospitals } from '@/features/hospitals'
import { useEmergencyNumber } from '@/lib/useEmergencyNumber'
import type { TimelineEntry, TripStage } from '@/lib/types'
import { S } from '@/strings'
import { isOpen } from '@/lib/trip/status'
import { beforePickup } from '@/lib/trip/stages'
import { reassignments } from '@/lib/trip/timeline'

/**
 * "No answer from the first ambulance: sent to AMB-07" while the booking is open and
 * the answer deadline moved it at least once (REASSIGNED, NO_ANSWER); nothing otherwise.
 */
export function MovedNotice({ trip }: { trip: { bookingStatus: string; timeline: TimelineEntry[]; ambulance: { number: string } } }) {
  const missed = reassignments(trip.timeline).filter((e) => e.reason === 'NO_ANSWER').length
  if (!isOpen(trip.bookingStatus) || missed === 0) return null
  const number = trip.ambulance.number
  return <Alert tone="info">{missed === 1 ? S.answer.movedFirst(number) : S.answer.movedMany(missed, number)}</Alert>
}

/** What [`AcceptNotice`] needs of a trip: the owner's tracking and the family's view both have it. */
export interface AcceptTrip {
  bookingStatus: string
  tripStage: TripStage | null
  answerBy: string | null
  accepted: boolean
  stillLooking: boolean
}

/**
 * The honest words (decision 0020): until the crew accepts, "Waiting for the crew to accept (42 s
 * left)", counting down to `answerBy` (the server's deadline, after which the job moves on by itself);
 * once they accept, "on its way", and only then. Nothing once the ambulance is at the pickup, the trip
 * is over, or the server says no crew answered (`stillLooking` shows instead).
 */
export function AcceptNotice({ trip }: { trip: AcceptTrip }) {
  const now = useNow(1000).getTime()
  if (!isOpen(trip.bookingStatus) || trip.stillLooking) return null
  if (trip.accepted) {
    // Accepted and not at the pickup yet: on its way (EN_ROUTE).
    return beforePickup(trip.tripStage) ? (
      <Alert tone="success">
        <span className="font-semibold">{S.answer.onItsWay}</span>
      </Alert>
    ) : null
  }
  const left = trip.answerBy ? Math.ceil((Date.parse(trip.answerBy) - now) / 1000) : 0
  return (
    <Alert tone="info">
      <span className="block font-semibold" data-testid="accept-wait">
        {left > 0 ? S.answer.waiting(left) : S.answer.waitingOver}
      </span>
      <span className="block">{S.answer.waitingText}</span>
    </Alert>
  )
}

/**
 * The server's `stillLooking` (no crew answered, the clock gave up and a dispatcher was
 * alerted): call the emergency number, or a hospital. The hospitals are the 3 nearest
 * to `near` from the public search, with their phones; until that answers, or when it
 * finds none, the trip's destination hospital stands alone (its phone when the view has
 * it: the requester's does, the family's link carries no phones).
 */
export function StillLooking({
  near,
  destination,
  family = false,
}: {
  near: { latitude: number | null; longitude: number | null } | null
  destination: { name: string; address: string; contactInfo?: string | null }
  family?: boolean
}) {
  useEmergencyNumber()
  const nearest = useNearestHospitals(near?.latitude ?? null, near?.longitude ?? null, 3)
  const found: Callable[] = (nearest.data ?? []).map((h) => ({
    key: `h${h.id}`,
    name: h.name,
    address: h.address,
    contactInfo: h.contactInfo ?? null,
    // From the family's search point (the destination) a distance would mislead.
    distance: family ? null : h.distance,
    note: h.name === destination.name && h.address === destination.address ? S.answer.destination : undefined,
  }))
  const hospitals: Callable[] =
    found.length > 0
      ? found
      : [{ key: 'destination', name: destination.name, address: destination.address, contactInfo: destination.contactInfo ?? null, note: S.answer.destination }]

  return (
    <section aria-labelledby="still-looking" className="card space-y-4 border-red-200 p-5">
      <div role="alert" className="space-y-1">
        <h2 id="still-looking" className="text-lg font-bold text-red-800">{S.answer.stillLooking}</h2>
        <p className="text-slate-700">{family ? S.answer.stillLookingFamily : S.answer.stillLookingText}</p>
      </div>
      <CallEmergency className="btn-primary w-full" />
      <div className="space-y-2">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{S.answer.hospitalsHeading}</h3>
        <HospitalsToCall hospitals={hospitals} />
      </div>
    </section>
  )
}
