import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { CountCards } from '@/components/CountCards'
import { EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { Icon } from '@/components/Icon'
import { PresenceBadge } from '@/components/PresenceBadge'
import { StatusBadge } from '@/components/StatusBadge'
import { ambulanceTypeLabel, telHref } from '@/lib/format'
import { useSession } from '@/lib/session'
import type { Ambulance } from '@/lib/types'
import { useHospitalAmbulances, useHospitalCounts } from '@/features/ambulances'
import { useHospital } from '@/features/hospitals'
import { DiversionBadge } from '@/components/DiversionBadge'
import { S } from '@/strings'
import { BookingDialog } from '../components/BookingDialog'

/** The spec's fixed coordinates, used only when the user has none of their own. */
const DEFAULT_LOCATION = { lat: 30.67, lng: 74.33 }

/**
 * `/hospitals/:id/ambulances`: a hospital's fleet, each available ambulance booked in
 * place (<BookingDialog>). A booking screen, so it lives here: the hospitals feature
 * only finds hospitals and never uses booking (features depend one way, eslint.config.js).
 */
export default function HospitalAmbulancesPage() {
  const id = Number(useParams().id)
  const user = useSession()?.user
  const hospital = useHospital(id)
  const ambulances = useHospitalAmbulances(id)
  const counts = useHospitalCounts(id)
  const [booking, setBooking] = useState<Ambulance | null>(null)
  const back =
    user?.latitude != null && user?.longitude != null
      ? `/hospitals/nearest?lat=${user.latitude}&lng=${user.longitude}`
      : `/hospitals/nearest?lat=${DEFAULT_LOCATION.lat}&lng=${DEFAULT_LOCATION.lng}`

  if (!Number.isInteger(id) || id <= 0) return <ErrorState message={S.hospitalAmbulancesFailed} />
  if (hospital.isPending || ambulances.isPending) return <Spinner label={S.bookingForm.loadingAmbulances} />
  if (hospital.isError || ambulances.isError) {
    return (
      <ErrorState
        message={S.hospitalAmbulancesFailed}
        onRetry={() => {
          void hospital.refetch()
          void ambulances.refetch()
        }}
      />
    )
  }

  const c = counts.data
  const cards = [
    { label: S.hospitalsPage.totalAmbulances, value: c?.total, style: 'text-slate-900' },
    { label: S.ambulanceStatus.AVAILABLE, value: c?.available, style: 'text-green-700' },
    { label: S.ambulanceStatus.ON_DUTY, value: c?.onDuty, style: 'text-blue-700' },
    { label: S.ambulanceStatus.MAINTENANCE, value: c?.maintenance, style: 'text-amber-700' },
  ]

  return (
    <div className="space-y-6">
      <Link to={back} className="btn-ghost -ml-3">{S.hospitalsPage.back}</Link>
      <div>
        <h1 className="text-2xl font-bold">{S.hospitalsPage.ambulancesTitle(hospital.data.name)}</h1>
        <p className="text-slate-600">{hospital.data.address}</p>
        {hospital.data.onDiversionUntil && (
          <p className="mt-1">
            <DiversionBadge until={hospital.data.onDiversionUntil} />
          </p>
        )}
      </div>
      <CountCards label={S.hospitalsPage.countsLabel} counts={cards} />
      {ambulances.data.length === 0 ? (
        <EmptyState title={S.adminAmbulances.emptyTitle} text={S.hospitalsPage.noneAvailable} />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {ambulances.data.map((a) => (
            <li key={a.id} className="card flex flex-col gap-3 p-5">
              <div className="flex items-center justify-between gap-3">
                <h2 className="flex items-center gap-2 font-semibold">
                  <Icon name="ambulance" /> {a.number}
                </h2>
                <span className="flex flex-wrap items-center justify-end gap-2">
                  <PresenceBadge presence={a.crewPresence} />
                  <StatusBadge status={a.status} />
                </span>
              </div>
              <dl className="grid grid-cols-2 gap-2 text-sm">
                <dt className="text-slate-500">{S.adminBookings.driver}</dt>
                <dd>{a.driverInfo ?? '—'}</dd>
                <dt className="text-slate-500">{S.adminBookings.type}</dt>
                <dd>{ambulanceTypeLabel[a.type] ?? a.type}</dd>
                <dt className="text-slate-500">{S.hospitalsPage.contact}</dt>
                <dd>
                  {a.contactInfo ? (
                    <a className="text-blue-700 hover:underline" href={telHref(a.contactInfo)}>{a.contactInfo}</a>
                  ) : (
                    '—'
                  )}
                </dd>
              </dl>
              {a.status === 'AVAILABLE' ? (
                <button
                  type="button"
                  className="btn-primary"
                  aria-label={S.hospitalsPage.bookNowLabel(a.number)}
                  onClick={() => setBooking(a)}
                >
                  {S.hospitalsPage.bookNow}
                </button>
              ) : (
                <button type="button" className="btn-secondary" disabled>
                  {S.hospitalsPage.notAvailable}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {booking && (
        <BookingDialog
          hospitalId={id}
          hospitalAt={[hospital.data.latitude, hospital.data.longitude]}
          ambulance={booking}
          onClose={() => setBooking(null)}
          onConflict={() => {
            void ambulances.refetch()
            void counts.refetch()
          }}
        />
      )}
    </div>
  )
}
