import { lazy, Suspense, useState, type ReactNode } from 'react'
import { Link, useLocation, useParams } from 'react-router'
import { Alert, EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { LastUpdated } from '@/components/Offline'
import { useNow } from '@/components/LiveClock'
import { Icon } from '@/components/Icon'
import { StatusBadge } from '@/components/StatusBadge'
import { ApiError } from '@/lib/api'
import { ambulanceTypeLabel, telHref } from '@/lib/format'
import { useOnline } from '@/lib/online'
import { isAdmin, useSession } from '@/lib/session'
import { useFlash } from '@/lib/useFlash'
import { S } from '@/strings'
import { useCancelBooking } from '../api/bookings'
import { useTracking, useTripFreshness } from '../api/track'
import { AcceptNotice, MovedNotice, StillLooking } from '../components/AnswerNotices'
import { Arrival } from '../components/Arrival'
import { BookingTypeBadge } from '../components/BookingTypeBadge'
import { CancelBookingDialog } from '../components/CancelBookingDialog'
import { PatientDetailsForm } from '../components/PatientDetailsForm'
import { ShareTracking } from '../components/ShareTracking'
import { TripAlerts } from '../components/TripAlerts'
import { TripTimeline } from '../components/TripTimeline'
import { forMap, goesElsewhere } from '../destination'
import { isOpen, mayCancel, tripLabel } from '@/lib/trip/status'
import { beforePickup } from '@/lib/trip/stages'
import { timelineRowsWithMoves } from '@/lib/trip/timeline'

const TrackingMap = lazy(() => import('../components/TrackingMap'))

/** /bookings/:id, for its requester and admins: where the ambulance is, when it comes, what happened. */
export default function TrackBookingPage() {
  const id = Number(useParams().id)
  const admin = isAdmin(useSession()?.user)
  const back = admin ? (
    <Link to="/admin/bookings" className="btn-ghost -ml-3">{S.tracking.backToBookings}</Link>
  ) : (
    <Link to="/history" className="btn-ghost -ml-3">{S.tracking.backToHistory}</Link>
  )
  if (!Number.isSafeInteger(id) || id <= 0) return <div className="space-y-4">{back}<ErrorState message={S.tracking.notFound} /></div>
  return <Track id={id} back={back} admin={admin} />
}

function Track({ id, back, admin }: { id: number; back: ReactNode; admin: boolean }) {
  const trip = useTracking(id)
  // Just sent from /emergency: say so once, and ask for the patient's details.
  const dispatched = (useLocation().state as { dispatched?: boolean } | null)?.dispatched === true
  const cancel = useCancelBooking()
  const [flash, , outcome] = useFlash(3000)
  const [confirming, setConfirming] = useState(false)
  const now = useNow(5000).getTime()
  const online = useOnline()
  const fresh = useTripFreshness(trip, now)

  if (trip.isPending) {
    // Offline before the first answer: the request waits for the connection (paused).
    const waiting = trip.fetchStatus === 'paused'
    return <div className="space-y-4">{back}{waiting ? <EmptyState title={S.tracking.loading} text={S.offline.noData} /> : <Spinner label={S.tracking.loading} />}</div>
  }
  const status = trip.error instanceof ApiError ? trip.error.status : 0
  const refused = status === 403 || status === 404
  // A refusal ends the view; trouble reaching the server keeps the last answer on screen, with its age.
  if (refused || !trip.data) {
    const message = status === 403 ? S.tracking.forbidden : status === 404 ? S.tracking.notFound : S.tracking.failed
    return (
      <div className="space-y-4">
        {back}
        <ErrorState message={message} error={trip.error} onRetry={refused ? undefined : () => trip.refetch()} />
      </div>
    )
  }

  const t = trip.data
  const open = isOpen(t.bookingStatus)
  // Just sent, until the crew is at the pickup: "request sent" (what the crew has done says AcceptNotice).
  const coming = open && t.tripStage != null && beforePickup(t.tripStage)
  // Worth a notification until the ambulance is there: the requester's, not an admin watching.
  const arriving = !admin && open && beforePickup(t.tripStage)

  return (
    <div className="space-y-6">
      {back}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{S.tracking.title(t.bookingId)}</h1>
          {/* Where the patient is driven: the trip's destination, which the crew may change on the way. */}
          <p className="text-slate-600">{tripLabel(t)} · {t.destinationHospitalName || t.hospital.name}</p>
        </div>
        <div className="flex items-center gap-2">
          <BookingTypeBadge type={t.bookingType} />
          <StatusBadge status={t.bookingStatus} />
        </div>
      </div>
      {/* No crew answered and the clock gave up: the requester calls for help too. */}
      {t.stillLooking && <StillLooking near={t.pickup ?? t.hospital} destination={t.hospital} />}
      <MovedNotice trip={t} />
      {dispatched && coming && (
        <Alert tone="success">
          <span className="font-semibold">{S.emergency.dispatched}</span> {!admin && t.bookingType === 'EMERGENCY' && S.emergency.dispatchedPatient}
        </Alert>
      )}
      <AcceptNotice trip={t} />
      {/* A final booking no longer changes: how old the answer is does not matter. */}
      {open && <LastUpdated updatedAt={trip.dataUpdatedAt} failing={trip.isError} />}
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem] lg:grid-rows-[auto_1fr]">
        <div className="space-y-3 lg:col-start-1">
          <Suspense fallback={<div role="status" className="h-72 animate-pulse rounded-xl bg-slate-100 md:h-[28rem]">{S.mapLoading}</div>}>
            <TrackingMap trip={forMap(t)} fresh={fresh} label={open ? S.tracking.mapLabel : S.tracking.mapLabelEnded} />
          </Suspense>
          {open && online && (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <span className="h-2 w-2 animate-pulse rounded-full bg-green-500" aria-hidden="true" /> {S.tracking.live}
            </p>
          )}
        </div>
        <div className="space-y-4 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <Arrival trip={t} fresh={fresh} />
          {arriving && <TripAlerts />}
          {/* The requester's (admins watch): an open emergency's details can follow it. */}
          {!admin && open && t.bookingType === 'EMERGENCY' && <PatientDetailsForm bookingId={t.bookingId} accepted={t.accepted} />}
          <section aria-labelledby="amb-heading" className="card space-y-3 p-5">
            <h2 id="amb-heading" className="font-semibold">
              {S.tracking.ambulance} {t.ambulance.number}
              <span className="block text-sm font-normal text-slate-600">{ambulanceTypeLabel[t.ambulance.type] ?? t.ambulance.type}</span>
            </h2>
            {t.ambulance.contactInfo && open && (
              <a href={telHref(t.ambulance.contactInfo)} className="btn-blue w-full">
                <Icon name="phone" className="h-4 w-4" /> {S.tracking.callAmbulance} <span className="font-normal">{t.ambulance.contactInfo}</span>
              </a>
            )}
            {t.hospital.contactInfo && !goesElsewhere(t) && (
              <a href={telHref(t.hospital.contactInfo)} className="btn-secondary w-full">
                <Icon name="hospital" className="h-4 w-4" /> {S.tracking.callHospital} <span className="font-normal">{t.hospital.contactInfo}</span>
              </a>
            )}
            {open &&
              (mayCancel(t) ? (
                <button type="button" className="btn-secondary w-full text-red-700" onClick={() => setConfirming(true)}>
                  {S.tracking.cancel}
                </button>
              ) : (
                <p className="text-sm text-slate-600">{S.tracking.cannotCancel}</p>
              ))}
          </section>
          {!admin && <ShareTracking bookingId={t.bookingId} ambulanceNumber={t.ambulance.number} open={open} />}
        </div>
        {/* Under the map on a wide screen; last on a phone, after what to do now. */}
        <section aria-labelledby="timeline-heading" className="card p-5 lg:col-start-1 lg:self-start">
          <h2 id="timeline-heading" className="mb-4 font-semibold">{S.tracking.timeline}</h2>
          <TripTimeline rows={timelineRowsWithMoves(t)} />
        </section>
      </div>
      {confirming && (
        <CancelBookingDialog
          bookingId={t.bookingId}
          title={S.tracking.cancel}
          question={S.tracking.cancelQuestion(t.ambulance.number)}
          cancel={cancel}
          outcome={outcome}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  )
}
