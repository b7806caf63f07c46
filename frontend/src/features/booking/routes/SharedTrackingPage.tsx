import { lazy, Suspense } from 'react'
import { useParams } from 'react-router'
import { EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { useNow } from '@/components/LiveClock'
import { LastUpdated } from '@/components/Offline'
import { Icon } from '@/components/Icon'
import { ApiError } from '@/lib/api'
import { ambulanceTypeLabel } from '@/lib/format'
import { S } from '@/strings'
import { useSharedTrip } from '../api/share'
import { useTripFreshness } from '../api/track'
import { AcceptNotice, MovedNotice, StillLooking } from '../components/AnswerNotices'
import { Arrival } from '../components/Arrival'
import { forMap } from '../destination'
import { isOpen, tripLabel } from '@/lib/trip/status'

const TrackingMap = lazy(() => import('../components/TrackingMap'))

/**
 * /t/:token, public: what the family may see of a trip: the ambulance on the map, the
 * stage, the ETA and the destination hospital. Nothing about the patient, the pickup or
 * the requester (the server does not send them). One message for a link that is
 * unknown, expired or stopped. Once the booking is final, how the trip ended and nothing of
 * the ambulance but its number and type: the server sends no position or ETA then (docs/requirements.md, "Tracking and family link").
 */
export default function SharedTrackingPage() {
  const token = useParams().token ?? ''
  const trip = useSharedTrip(token)
  const now = useNow(5000).getTime()
  const fresh = useTripFreshness(trip, now)

  if (trip.isPending) {
    return trip.fetchStatus === 'paused' ? <EmptyState title={S.sharedTrip.loading} text={S.offline.noData} /> : <Spinner label={S.sharedTrip.loading} />
  }
  // 404 is the server's one answer for unknown, expired and revoked (a malformed token: 400),
  // also while the page is open (sharing stopped); other trouble keeps the last answer shown.
  if (trip.error instanceof ApiError && (trip.error.status === 404 || trip.error.status === 400)) {
    return <EmptyState title={S.sharedTrip.goneTitle} text={S.sharedTrip.gone} />
  }
  if (!trip.data) return <ErrorState message={S.sharedTrip.failed} error={trip.error} onRetry={() => trip.refetch()} />

  const t = trip.data
  const open = isOpen(t.bookingStatus)
  // Where the patient is driven: the trip's destination (the crew may change it on the way).
  const destination = t.destinationHospitalName || t.hospital.name
  // "On its way" only once the crew has accepted (decision 0020).
  const title = open
    ? t.accepted
      ? S.sharedTrip.title
      : S.answer.waitingOver
    : t.bookingStatus === 'COMPLETED'
      ? S.sharedTrip.completedTitle
      : S.sharedTrip.cancelledTitle
  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <div>
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="text-slate-600">
          {open && `${tripLabel(t)} · `}
          {S.tracking.ambulance} <span className="whitespace-nowrap">{t.ambulance.number}</span> ({ambulanceTypeLabel[t.ambulance.type] ?? t.ambulance.type})
        </p>
      </div>
      {/* The family's link has no pickup: the hospitals to call are those near the destination. */}
      {t.stillLooking && <StillLooking near={t.hospital} destination={t.hospital} family />}
      <MovedNotice trip={t} />
      <AcceptNotice trip={t} />
      {open && <LastUpdated updatedAt={trip.dataUpdatedAt} failing={trip.isError} />}
      <Suspense fallback={<div role="status" className="h-72 animate-pulse rounded-xl bg-slate-100 md:h-96">{S.mapLoading}</div>}>
        <TrackingMap trip={forMap(t)} fresh={fresh} label={open ? S.sharedTrip.mapLabel : S.sharedTrip.mapLabelEnded} />
      </Suspense>
      <div className="grid gap-4 sm:grid-cols-2">
        <Arrival trip={t} fresh={fresh} />
        <section aria-labelledby="destination-heading" className="card space-y-1 p-5">
          <h2 id="destination-heading" className="text-sm font-medium text-slate-600">{S.sharedTrip.destination}</h2>
          <p className="flex items-center gap-2 font-semibold text-slate-900">
            <Icon name="hospital" className="h-5 w-5 shrink-0 text-teal-700" /> {destination}
          </p>
          {/* The address the answer carries is the ambulance's hospital's: shown only when that is where the patient goes. */}
          {destination === t.hospital.name && <p className="text-sm text-slate-600">{t.hospital.address}</p>}
        </section>
      </div>
    </div>
  )
}
