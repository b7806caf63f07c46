import { Link } from 'react-router'
import { CellLines, type Column, DataTable } from '@/components/DataTable'
import { bookingAmbulance, bookingHospital, BookingTypeBadge, patientLine } from '@/features/booking'
import { formatDateTime } from '@/lib/format'
import type { Booking, BookingStatus } from '@/lib/types'
import { S } from '@/strings'
import { BookingStatusSelect } from './BookingStatusSelect'

/** Every booking on a page, with the status dropdown and 'View' for its details. */
export function BookingsTable({
  caption,
  bookings,
  statusBusy,
  onStatus,
  onView,
}: {
  caption: string
  bookings: Booking[]
  /** A status change is under way: the dropdowns wait. */
  statusBusy: boolean
  onStatus: (booking: Booking, status: BookingStatus) => void
  onView: (booking: Booking) => void
}) {
  const columns: Column<Booking>[] = [
    {
      name: 'Booking Details',
      cell: (b) => (
        <span>
          <span className="block font-semibold text-slate-900">#{b.id}</span>
          <span className="block text-xs text-slate-600">{patientLine(b.patient).name}</span>
          <span className="mt-1 block"><BookingTypeBadge type={b.bookingType} /></span>
        </span>
      ),
    },
    {
      name: 'User',
      cell: (b) => <CellLines className="min-w-0 break-words" main={b.username || `User ${b.userId}`} detail={b.userEmail} />,
    },
    { name: 'Hospital', cell: bookingHospital },
    {
      name: 'Ambulance',
      cell: (b) => <CellLines main={bookingAmbulance(b)} detail={b.ambulance?.driverInfo} />,
    },
    { name: 'Booking Time', className: 'md:whitespace-nowrap', cell: (b) => formatDateTime(b.bookingTime) },
    {
      name: 'Status',
      cell: (b) => <BookingStatusSelect booking={b} disabled={statusBusy} onChange={(s) => onStatus(b, s)} />,
    },
    {
      name: 'Actions',
      cell: (b) => (
        <span className="flex gap-2">
          <button type="button" className="btn-secondary px-3 py-1" aria-label={`View booking ${b.id}`} onClick={() => onView(b)}>
            View
          </button>
          <Link to={`/bookings/${b.id}`} className="btn-secondary px-3 py-1" aria-label={S.trackBooking(b.id)}>
            {S.track}
          </Link>
        </span>
      ),
    },
  ]

  return <DataTable caption={caption} columns={columns} rows={bookings} rowKey={(b) => b.id} />
}
