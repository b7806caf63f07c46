import { Link } from 'react-router'
import { CellLines, type Column, DataTable } from '@/components/DataTable'
import type { Booking } from '@/lib/types'
import { StatusBadge } from '@/components/StatusBadge'
import { formatDateTime } from '@/lib/format'
import { S } from '@/strings'
import { bookingAmbulance, bookingHospital, mayCancel, tripLabel } from '../status'
import { patientLine } from '../patient'
import { BookingTypeBadge } from './BookingTypeBadge'

/** A person's bookings, newest first, each with its tracking page; a Cancel button where the server lists CANCELLED in its moves. */
export function HistoryTable({ bookings, onCancel }: { bookings: Booking[]; onCancel: (booking: Booking) => void }) {
  const columns: Column<Booking>[] = [
    {
      name: 'Hospital',
      cell: (b) => <CellLines mainClassName="font-medium text-slate-900" main={bookingHospital(b)} detail={b.hospital?.address} />,
    },
    { name: 'Ambulance', cell: bookingAmbulance },
    {
      name: 'Patient',
      cell: (b) => {
        const patient = patientLine(b.patient)
        return <CellLines main={patient.name} detail={patient.facts} />
      },
    },
    { name: 'Type', cell: (b) => <BookingTypeBadge type={b.bookingType} /> },
    { name: 'Date & Time', className: 'md:whitespace-nowrap', cell: (b) => formatDateTime(b.bookingTime) },
    {
      name: 'Status',
      cell: (b) => (
        <span className="inline-flex flex-col items-end gap-1 md:items-start">
          <StatusBadge status={b.bookingStatus} />
          {b.bookingStatus === 'ACTIVE' && b.tripStage && <span className="text-xs text-slate-600">{tripLabel(b)}</span>}
        </span>
      ),
    },
    {
      name: 'Actions',
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
              aria-label={`Cancel booking ${b.id}`}
              onClick={() => onCancel(b)}
            >
              Cancel
            </button>
          )}
        </span>
      ),
    },
  ]

  return <DataTable caption="Your bookings" columns={columns} rows={bookings} rowKey={(b) => b.id} />
}
