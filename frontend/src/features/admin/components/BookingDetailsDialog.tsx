import type { ReactNode } from 'react'
import { Dialog } from '@/components/Dialog'
import { StatusBadge } from '@/components/StatusBadge'
import { BookingTypeBadge } from '@/features/booking'
import { messageOf } from '@/lib/api'
import { patientLine } from '@/lib/trip/patient'
import { bookingAmbulance, bookingHospital } from '@/lib/trip/status'
import { ambulanceTypeLabel, formatDateTime } from '@/lib/format'
import type { Booking } from '@/lib/types'
import { S } from '@/strings'
import { A } from '../strings'
import { useAdminBooking } from '../api/bookings'

/**
 * Everything a booking records, behind 'View' in the bookings table. The list shows the
 * patient by name only: their age, gender and condition come with the booking itself,
 * whose every opening the server records (docs/decisions/0022-personal-data.md).
 */
export function BookingDetailsDialog({ booking: listed, onClose }: { booking: Booking; onClose: () => void }) {
  const whole = useAdminBooking(listed.id)
  const b = whole.data ?? listed
  const patient = patientLine(b.patient)
  const patientRows: [string, ReactNode][] = whole.isPending
    ? [[S.crew.patient, S.common.loading]]
    : whole.isError
      ? [[S.crew.patient, messageOf(whole.error, S.bookingsFailed)]]
      : b.erased
        ? [[S.crew.patient, S.adminBookings.patientErased]]
        : [
            [S.crew.patient, patient.known ? [patient.name, patient.facts].filter(Boolean).join(', ') : S.patientNotGiven],
            [S.crew.condition, b.patient?.condition || '—'],
          ]
  const rows: [string, ReactNode][] = [
    [S.adminBookings.statusCol, <StatusBadge key="s" status={b.bookingStatus} />],
    [S.adminBookings.type, <BookingTypeBadge key="t" type={b.bookingType} />],
    [S.adminBookings.bookingTime, formatDateTime(b.bookingTime)],
    [S.adminBookings.userCol, `${b.username || S.adminBookings.user(b.userId)}${b.userEmail ? ` (${b.userEmail})` : ''}`],
    [S.adminBookings.hospitalCol, `${bookingHospital(b)}${b.hospital?.address ? `, ${b.hospital.address}` : ''}`],
    [S.adminBookings.ambulanceCol, `${bookingAmbulance(b)}${b.ambulance?.type ? ` · ${ambulanceTypeLabel[b.ambulance.type] ?? b.ambulance.type}` : ''}`],
    [S.adminBookings.driver, b.ambulance?.driverInfo || '—'],
    ...patientRows,
  ]
  return (
    <Dialog title={S.tracking.title(b.id)} onClose={onClose}>
      <dl className="mb-4 grid grid-cols-[7rem_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-500">{k}</dt>
            <dd className="break-words text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <p className="mb-6 text-xs text-slate-500">{S.adminBookings.patientRecorded}</p>
      <div className="flex justify-end">
        <button type="button" className="btn-secondary" onClick={onClose}>{A().alerts.close}</button>
      </div>
    </Dialog>
  )
}
