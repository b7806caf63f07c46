import { Icon } from '@/components/Icon'
import { BookingTypeBadge } from '@/features/booking'
import { H } from '@/i18n/hospital'
import { ambulanceTypeLabel, formatAge, formatTime, telHref } from '@/lib/format'
import { legOf } from '@/lib/trip/stages'
import type { IncomingTrip } from '@/lib/types'
import { S } from '@/strings'
import { etaLeft, etaText, HANDOVER_TARGET_MS, phaseOf, since } from '../board'

/**
 * One ambulance on the board: booking, type, stage, the time that matters (the ETA
 * ticking down, or how long it has waited at the door, or when it was handed over),
 * the patient as far as known, the crew's phone, and after arrival "Handover done".
 * `answeredAt`: when the board's answer came (the ETA counts down from it); `now` ticks.
 */
export function TripCard({ trip, answeredAt, now, onHandover }: { trip: IncomingTrip; answeredAt: number; now: number; onHandover: (trip: IncomingTrip) => void }) {
  const t = H().board
  const phase = phaseOf(trip)
  const emergency = trip.bookingType === 'EMERGENCY'
  const waited = since(trip.arrivedAt, now)
  const late = phase === 'atDoor' && waited !== null && waited >= HANDOVER_TARGET_MS
  const headingId = `trip-${trip.bookingId}`
  // The left edge says the urgency at a glance: red past the handover target, amber at the door, the brand's red for an emergency coming.
  const accent = phase === 'atDoor' ? (late ? 'border-l-red-600' : 'border-l-amber-500') : emergency && phase === 'onTheWay' ? 'border-l-brand-600' : 'border-l-slate-300'

  return (
    <article aria-labelledby={headingId} className={`card space-y-3 border-l-8 p-4 ${accent}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={headingId} className="text-lg font-bold">
            {t.ambulance(trip.ambulance.number)}{' '}
            <span className="text-sm font-normal text-slate-600">· {ambulanceTypeLabel[trip.ambulance.type] ?? trip.ambulance.type}</span>
          </h3>
          <p className="text-sm text-slate-600">
            {t.booking(trip.bookingId)} · {stageText(trip)}
          </p>
        </div>
        <BookingTypeBadge type={trip.bookingType} />
      </div>

      <TimeLine trip={trip} answeredAt={answeredAt} now={now} late={late} />

      <div>
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t.patient}</h4>
        <PatientFacts trip={trip} />
      </div>

      <div className="flex flex-col gap-2 sm:flex-row">
        {trip.crewPhone ? (
          <a href={telHref(trip.crewPhone)} className="btn-touch border border-slate-300 bg-white text-slate-800 hover:bg-slate-100">
            <Icon name="phone" /> {t.callCrew} <span className="font-normal">{trip.crewPhone}</span>
          </a>
        ) : (
          phase !== 'done' && <p className="text-sm text-slate-600">{t.noCrewPhone}</p>
        )}
        {phase === 'atDoor' && (
          <button
            type="button"
            className="btn-touch bg-brand-600 text-white hover:bg-brand-700"
            aria-label={t.handoverLabel(trip.bookingId)}
            onClick={() => onHandover(trip)}
          >
            {t.handover}
          </button>
        )}
      </div>
    </article>
  )
}

function stageText(trip: IncomingTrip): string {
  const t = H().board
  if (trip.bookingStatus === 'CANCELLED') return t.cancelled
  if (trip.stage === null) return S.stages.PENDING
  // Ended without a handover (the crew completed it straight from the door): said as finished.
  if (phaseOf(trip) === 'done' && legOf(trip.stage) !== 'handedOver') return t.finished
  return t.stages[trip.stage]
}

function TimeLine({ trip, answeredAt, now, late }: { trip: IncomingTrip; answeredAt: number; now: number; late: boolean }) {
  const t = H().board
  const phase = phaseOf(trip)
  if (phase === 'onTheWay') {
    const left = etaLeft(trip.etaSeconds, answeredAt, now)
    return (
      <p className="flex items-baseline gap-2">
        <span className="text-sm font-medium text-slate-600">{t.eta}</span>
        <span role="timer" className={`tabular-nums ${left === null ? 'text-slate-700' : 'text-2xl font-bold text-slate-900'}`}>{etaText(left)}</span>
      </p>
    )
  }
  if (phase === 'atDoor') {
    const waited = since(trip.arrivedAt, now)
    return (
      <div className={`rounded-lg border px-3 py-2 ${late ? 'border-red-300 bg-red-50 text-red-900' : 'border-amber-300 bg-amber-50 text-amber-950'}`}>
        <p role="timer" className="text-2xl font-bold tabular-nums">{waited === null ? t.waiting : t.waitingFor(formatAge(waited))}</p>
        {trip.arrivedAt && <p className="text-sm">{t.arrivedAt(formatTime(trip.arrivedAt))}</p>}
      </div>
    )
  }
  const took = trip.arrivedAt && trip.handedOverAt ? Date.parse(trip.handedOverAt) - Date.parse(trip.arrivedAt) : null
  return (
    <p className="text-sm text-slate-700">
      {trip.handedOverAt ? t.handedOverAt(formatTime(trip.handedOverAt)) : trip.arrivedAt ? t.arrivedAt(formatTime(trip.arrivedAt)) : t.finished}
      {took !== null && took >= 0 && ` · ${t.handoverTook(formatAge(took))}`}
    </p>
  )
}

function PatientFacts({ trip }: { trip: IncomingTrip }) {
  const t = H().board
  const { age, gender, condition } = trip.patient
  const facts = [age === null ? null : t.age(age), gender === null ? null : (S.patient.genders[gender] ?? gender)].filter(Boolean)
  if (facts.length === 0 && !condition) return <p className="text-slate-600">{t.noPatient}</p>
  return (
    <>
      {facts.length > 0 && <p className="font-semibold">{facts.join(' · ')}</p>}
      {condition && (
        <p>
          <span className="font-medium">{t.condition}:</span> {condition}
        </p>
      )}
    </>
  )
}
