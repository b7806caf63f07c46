import type { ReactNode } from 'react'
import { Dialog } from '@/components/Dialog'
import { StatusBadge } from '@/components/StatusBadge'
import { BookingTypeBadge } from '@/features/booking'
import { patientLine } from '@/lib/trip/patient'
import { bookingAmbulance, bookingHospital } from '@/lib/trip/status'
import { ambulanceTypeLabel, formatDateTime } from '@/lib/format'
import type { Booking } from '@/lib/types'
import { S } from '@/strings'
import { useBookingDetails } from '../api/bookings'

/**
 * Everything a booking records, behind 'View' in the bookings table. The list has the
 * patient's name only; the details are read when the dialog opens, on the audit trail
 * (docs/decisions/0023-audit-trail.md).
 */
export function BookingDetailsDialog({ booking: listed, onClose }: { booking: Booking; onClose: () => void }) {
  const details = useBookingDetails(listed.id)
  const b = details.data ?? listed
  const patient = patientLine(b.patient)
  const detailsRow: ReactNode = details.isPending ? (
    <span role="status" className="text-slate-500">{S.adminBookings.loadingDetails}</span>
  ) : details.isError ? (
    <span className="text-red-700">{S.adminBookings.detailsFailed}</span>
  ) : (
    b.patient?.condition || '—'
  )
  const rows: [string, ReactNode][] = [
    [S.adminBookings.statusCol, <StatusBadge key="s" status={b.bookingStatus} />],
    [S.adminBookings.type, <BookingTypeBadge key="t" type={b.bookingType} />],
    [S.adminBookings.bookingTime, formatDateTime(b.bookingTime)],
    [S.adminBookings.userCol, `${b.username || S.adminBookings.user(b.userId)}${b.userEmail ? ` (${b.userEmail})` : ''}`],
    [S.adminBookings.hospitalCol, `${bookingHospital(b)}${b.hospital?.address ? `, ${b.hospital.address}` : ''}`],
    [S.adminBookings.ambulanceCol, `${bookingAmbulance(b)}${b.ambulance?.type ? ` · ${ambulanceTypeLabel[b.ambulance.type] ?? b.ambulance.type}` : ''}`],
    [S.adminBookings.driver, b.ambulance?.driverInfo || '—'],
    [S.crew.patient, patient.known ? [patient.name, patient.facts].filter(Boolean).join(', ') : S.patientNotGiven],
    [S.crew.condition, detailsRow],
  ]
  return (
    <Dialog title={S.tracking.title(b.id)} onClose={onClose}>
      <dl className="mb-6 grid grid-cols-[7rem_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-500">{k}</dt>
            <dd className="break-words text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <div className="flex justify-end">
        <button type="button" className="btn-secondary" onClick={onClose}>{S.alerts.close}</button>
      </div>
    </Dialog>
  )
}
