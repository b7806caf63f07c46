import { bookingTypeLabel } from '@/lib/trip/status'

export function BookingTypeBadge({ type }: { type: string }) {
  const emergency = type === 'EMERGENCY'
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${
        emergency ? 'bg-brand-100 text-brand-800' : 'bg-slate-100 text-slate-700'
      }`}
    >
      {bookingTypeLabel[type] ?? type}
    </span>
  )
}
