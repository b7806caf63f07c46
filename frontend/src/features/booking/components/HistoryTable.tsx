import { Link } from 'react-router'
import { CellLines, type Column, DataTable } from '@/components/DataTable'
import type { Booking } from '@/lib/types'
import { StatusBadge } from '@/components/StatusBadge'
import { formatDateTime } from '@/lib/format'
import { S } from '@/strings'
import { bookingAmbulance, bookingHospital, mayCancel, tripLabel } from '@/lib/trip/status'
import { patientLine } from '@/lib/trip/patient'
import { BookingTypeBadge } from './BookingTypeBadge'

/** A person's bookings, newest first, each with its tracking page; a Cancel button where the server lists CANCELLED in its moves. */
export function HistoryTable({ bookings, onCancel }: { bookings: Booking[]; onCancel: (booking: Booking) => void }) {
  const columns: Column<Booking>[] = [
    {
      name: S.tracking.hospital,
      cell: (b) => <CellLines mainClassName="font-medium text-slate-900" main={bookingHospital(b)} detail={b.hospital?.address} />,
    },
    { name: S.tracking.ambulance, cell: bookingAmbulance },
    {
      name: S.crew.patient,
      cell: (b) => {
        const patient = patientLine(b.patient)
        return <CellLines main={patient.name} detail={patient.facts} />
      },
    },
    { name: S.adminBookings.type, cell: (b) => <BookingTypeBadge type={b.bookingType} /> },
    { name: S.historyPage.dateCol, className: 'md:whitespace-nowrap', cell: (b) => formatDateTime(b.bookingTime) },
    {
      name: S.adminBookings.statusCol,
      cell: (b) => (
        <span className="inline-flex flex-col items-end gap-1 md:items-start">
          <StatusBadge status={b.bookingStatus} />
          {b.bookingStatus === 'ACTIVE' && b.tripStage && <span className="text-xs text-slate-600">{tripLabel(b)}</span>}
        </span>
      ),
    },
    {
      name: S.adminBookings.actionsCol,
      hidden: true,
      className: 'md:text-right',
      cell: (b) => (
        <span className="flex w-full gap-2 md:w-auto md:justify-end">
          <Link to={`/bookings/${b.id}`} className="btn-secondary flex-1 px-3 py-1 md:flex-none" aria-label={S.trackBooking(b.id)}>
            {S.track}
          </Link>
          {mayCancel(b) && (
            <button
              type="button"
              className="btn-secondary flex-1 px-3 py-1 text-red-700 md:flex-none"
              aria-label={S.historyPage.cancelLabel(b.id)}
              onClick={() => onCancel(b)}
            >
              {S.common.cancel}
            </button>
          )}
        </span>
      ),
    },
  ]

  return <DataTable caption={S.historyPage.caption} columns={columns} rows={bookings} rowKey={(b) => b.id} />
}
