import { ambulanceStatusLabel, bookingStatusText } from '@/lib/format'

const styles: Record<string, string> = {
  AVAILABLE: 'bg-green-100 text-green-800',
  ON_DUTY: 'bg-blue-100 text-blue-800',
  MAINTENANCE: 'bg-amber-100 text-amber-900',
  PENDING: 'bg-yellow-100 text-yellow-900',
  ACTIVE: 'bg-blue-100 text-blue-800',
  COMPLETED: 'bg-green-100 text-green-800',
  CANCELLED: 'bg-red-100 text-red-800',
}

/** A coloured status pill; unknown values look like PENDING (docs/requirements.md, "Booking"). */
export function StatusBadge({ status }: { status: string }) {
  const style = styles[status] ?? styles.PENDING
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${style}`}>
      {ambulanceStatusLabel[status] ?? bookingStatusText(status)}
    </span>
  )
}
