import { Link } from 'react-router'
import { CellLines, type Column, DataTable } from '@/components/DataTable'
import { BookingTypeBadge } from '@/features/booking'
import { patientLine } from '@/lib/trip/patient'
import { bookingAmbulance, bookingHospital } from '@/lib/trip/status'
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
      name: S.adminBookings.detailsCol,
      cell: (b) => (
        <span>
          <span className="block font-semibold text-slate-900">#{b.id}</span>
          <span className="block text-xs text-slate-600">{patientLine(b.patient).name}</span>
          <span className="mt-1 block"><BookingTypeBadge type={b.bookingType} /></span>
        </span>
      ),
    },
    {
      name: S.adminBookings.userCol,
      cell: (b) => <CellLines className="min-w-0 break-words" main={b.username || S.adminBookings.user(b.userId)} detail={b.userEmail} />,
    },
    { name: S.adminBookings.hospitalCol, cell: bookingHospital },
    {
      name: S.adminBookings.ambulanceCol,
      cell: (b) => <CellLines main={bookingAmbulance(b)} detail={b.ambulance?.driverInfo} />,
    },
    { name: S.adminBookings.timeCol, className: 'md:whitespace-nowrap', cell: (b) => formatDateTime(b.bookingTime) },
    {
      name: S.adminBookings.statusCol,
      cell: (b) => <BookingStatusSelect booking={b} disabled={statusBusy} onChange={(s) => onStatus(b, s)} />,
    },
    {
      name: S.adminBookings.actionsCol,
      cell: (b) => (
        <span className="flex gap-2">
          <button type="button" className="btn-secondary px-3 py-1" aria-label={S.adminBookings.viewLabel(b.id)} onClick={() => onView(b)}>
            {S.adminBookings.view}
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
