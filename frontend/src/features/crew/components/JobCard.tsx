import { lazy, Suspense, type ReactNode } from 'react'
import { Icon } from '@/components/Icon'
import { useNow } from '@/components/LiveClock'
import { BookingTypeBadge } from '@/features/booking'
import { patientLine } from '@/lib/trip/patient'
import { tripLabel } from '@/lib/trip/status'
import { beforePickup, stageTable } from '@/lib/trip/stages'
import type { Booking, Position } from '@/lib/types'
import { formatCoord, telHref } from '@/lib/format'
import { directionsUrl } from '@/lib/geo'
import { S } from '@/strings'

const CrewMap = lazy(() => import('./CrewMap'))

/** A big link that leaves the app: a call, or directions in the maps app. */
export function TouchLink({ href, primary, external, children }: { href: string; primary: boolean; external?: boolean; children: ReactNode }) {
  return (
    <a
      href={href}
      className={`btn-touch w-full ${primary ? 'bg-blue-600 text-white hover:bg-blue-700' : 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100'}`}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {children}
    </a>
  )
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-2 border-t border-slate-100 pt-4 first:border-t-0 first:pt-0">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {children}
    </div>
  )
}

/**
 * The job the ambulance holds: the patient, who asked (tap to call), the pickup on a map
 * with directions, and the destination hospital. The way to the place the crew drives to next is
 * the blue one.
 */
export function JobCard({
  job,
  position,
  action,
  destination,
}: {
  job: Booking
  position: Position | null
  action: ReactNode
  /** The destination hospital's part (DestinationPart): given `toHospital`, whether its way is the blue one. */
  destination: (toHospital: boolean) => ReactNode
}) {
  const emergency = job.bookingType === 'EMERGENCY'
  // From the pickup on, the hospital's way is the one to follow.
  const toHospital = !beforePickup(job.tripStage)
  const patient = job.patient
  const who = patientLine(patient)

  return (
    <section aria-labelledby="job-heading" className="card overflow-clip">
      <div className={`px-4 py-3 text-white ${emergency ? 'bg-brand-700' : 'bg-slate-800'}`}>
        <div className="flex items-center justify-between gap-3">
          <h2 id="job-heading" className="text-lg font-bold">{S.crew.jobHeading(job.id)}</h2>
          <BookingTypeBadge type={job.bookingType} />
        </div>
        <p className="text-sm font-medium">{tripLabel(job)}</p>
      </div>
      {/* isolate: the map's panes (Leaflet's z-index 400+) stay under the sticky footer. */}
      <div className="isolate space-y-4 p-4">
        <Part title={S.crew.patient}>
          {who.known ? (
            <>
              <p className="text-lg font-semibold">
                {who.name} {who.facts && <span className="font-normal text-slate-600">· {who.facts}</span>}
              </p>
              {patient.condition && <p><span className="font-medium">{S.crew.condition}:</span> {patient.condition}</p>}
            </>
          ) : (
            <p className="text-slate-700">{S.crew.noPatientYet}</p>
          )}
        </Part>
        <Part title={S.crew.requester}>
          <p className="font-medium">{job.username}</p>
          {job.userPhone ? (
            <TouchLink href={telHref(job.userPhone)} primary={false}>
              <Icon name="phone" /> {S.crew.call(job.username)} <span className="font-normal">{job.userPhone}</span>
            </TouchLink>
          ) : (
            <p className="text-sm text-slate-600">{S.crew.noPhone}</p>
          )}
        </Part>
        <Part title={S.crew.pickup}>
          {job.pickup ? (
            <>
              {job.pickup.landmark && <p className="text-lg font-semibold">{job.pickup.landmark}</p>}
              <p className="text-sm text-slate-600">{formatCoord(job.pickup.latitude)}, {formatCoord(job.pickup.longitude)}</p>
              <Suspense fallback={<div role="status" className="h-64 animate-pulse rounded-xl bg-slate-100">{S.mapLoading}</div>}>
                <CrewMap pickup={job.pickup} position={position} />
              </Suspense>
              <TouchLink href={directionsUrl(job.pickup)} primary={!toHospital} external>
                <Icon name="pin" /> {S.crew.navigateToPickup} <span className="sr-only">{S.crew.opensMaps}</span>
              </TouchLink>
            </>
          ) : (
            <p className="font-medium text-amber-900">{S.crew.noPickup}</p>
          )}
        </Part>
        <Part title={S.crew.hospital}>{destination(toHospital)}</Part>
      </div>
      {/* The one next move stays in reach at the bottom of a phone's screen, with the time left to
          take it (overflow-clip on the card, not hidden: hidden would stop the sticky). */}
      <div className="sticky bottom-0 z-10 space-y-3 border-t border-slate-200 bg-white/95 p-4 backdrop-blur">
        {job.answerBy && awaitsAnswer(job) && <AnswerCountdown answerBy={job.answerBy} />}
        {action}
      </div>
    </section>
  )
}

/** The crew has yet to accept (PENDING, or ACTIVE at DISPATCHED): the answer deadline runs. */
const awaitsAnswer = (job: Booking) =>
  job.bookingStatus === 'PENDING' || (job.bookingStatus === 'ACTIVE' && job.tripStage != null && !stageTable[job.tripStage].accepted)

/** "0:42": whole seconds left, rounded up so 0:00 shows only once the time is up. */
function formatLeft(ms: number): string {
  const secs = Math.max(0, Math.ceil(ms / 1000))
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`
}

/**
 * "Answer within 0:42", ticking each second to `answerBy` (the server's deadline, read
 * against this phone's clock); at zero, that the job may move to another ambulance.
 */
export function AnswerCountdown({ answerBy }: { answerBy: string }) {
  const left = Date.parse(answerBy) - useNow(1000).getTime()
  if (!(left > 0)) {
    return (
      <p role="timer" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 font-semibold text-red-800">
        {S.crew.answerLate}
      </p>
    )
  }
  return (
    <div role="timer" className={`rounded-lg border px-3 py-2 ${left <= 15_000 ? 'border-red-200 bg-red-50 text-red-800' : 'border-amber-200 bg-amber-50 text-amber-900'}`}>
      <p className="text-lg font-bold tabular-nums">{S.crew.answerWithin(formatLeft(left))}</p>
      <p className="text-sm">{S.crew.answerHint}</p>
    </div>
  )
}
