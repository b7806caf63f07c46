import { StatusBadge } from '@/components/StatusBadge'
import { bookingStatusText } from '@/lib/format'
import { statusMoves } from '@/lib/trip/status'
import type { Booking, BookingStatus } from '@/lib/types'
import { S } from '@/strings'

const tone: Record<string, string> = {
  PENDING: 'border-yellow-300 bg-yellow-50 text-yellow-900',
  ACTIVE: 'border-blue-300 bg-blue-50 text-blue-800',
}

/** The spec's inline status dropdown, offering exactly the moves the server's answer lists. */
export function BookingStatusSelect({
  booking,
  disabled,
  onChange,
}: {
  booking: Booking
  disabled: boolean
  onChange: (status: BookingStatus) => void
}) {
  const next = statusMoves(booking.moves)
  if (next.length === 0) return <StatusBadge status={booking.bookingStatus} />
  return (
    <select
      aria-label={S.adminBookings.statusOf(booking.id)}
      className={`rounded-lg border px-2 py-1 text-xs font-semibold ${tone[booking.bookingStatus] ?? tone.PENDING}`}
      value={booking.bookingStatus}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value as BookingStatus)}
    >
      <option value={booking.bookingStatus}>{bookingStatusText(booking.bookingStatus)}</option>
      {next.map((s) => (
        <option key={s} value={s}>{bookingStatusText(s)}</option>
      ))}
    </select>
  )
}
