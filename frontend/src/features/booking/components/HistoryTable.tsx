import { type Column, DataTable } from '@/components/DataTable'
import { StatusBadge } from '@/components/StatusBadge'
import { formatDateTime } from '@/lib/format'
import type { Booking } from '@/lib/types'
import { bookingAmbulance, bookingHospital, isOpen } from '../status'
import { BookingTypeBadge } from './BookingTypeBadge'

/** A person's bookings, newest first; an open one can be cancelled. */
export function HistoryTable({ bookings, onCancel }: { bookings: Booking[]; onCancel: (booking: Booking) => void }) {
  const columns: Column<Booking>[] = [
    {
      name: 'Hospital',
      cell: (b) => (
        <span>
          <span className="block font-medium text-slate-900">{bookingHospital(b)}</span>
          {b.hospital?.address && <span className="block text-xs text-slate-500">{b.hospital.address}</span>}
        </span>
      ),
    },
    { name: 'Ambulance', cell: bookingAmbulance },
    {
      name: 'Patient',
      cell: (b) => (
        <span>
          <span className="block font-medium">{b.patient?.name ?? '—'}</span>
          {b.patient && <span className="block text-xs text-slate-500">{b.patient.age} · {b.patient.gender}</span>}
        </span>
      ),
    },
    { name: 'Type', cell: (b) => <BookingTypeBadge type={b.bookingType} /> },
    { name: 'Date & Time', className: 'md:whitespace-nowrap', cell: (b) => formatDateTime(b.bookingTime) },
    { name: 'Status', cell: (b) => <StatusBadge status={b.bookingStatus} /> },
    {
      name: 'Actions',
      hidden: true,
      className: 'md:text-right',
      cell: (b) =>
        isOpen(b.bookingStatus) && (
          <button
            type="button"
            className="btn-secondary w-full px-3 py-1 text-red-700 md:w-auto"
            aria-label={`Cancel booking ${b.id}`}
            onClick={() => onCancel(b)}
          >
            Cancel
          </button>
        ),
    },
  ]

  return <DataTable caption="Your bookings" columns={columns} rows={bookings} rowKey={(b) => b.id} />
}
