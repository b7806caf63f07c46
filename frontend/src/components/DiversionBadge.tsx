import { H } from '@/i18n/hospital'
import { formatTime } from '@/lib/format'

/**
 * "On diversion until 14:30": the hospital asks ambulances to go elsewhere until then
 * (`onDiversionUntil`, null when open). Nothing while open. Only lazy screens use it:
 * its words (i18n/hospital) stay out of the first load.
 */
export function DiversionBadge({ until }: { until: string | null | undefined }) {
  if (!until) return null
  return (
    <span className="inline-flex rounded-full border border-amber-500 bg-amber-50 px-2.5 py-0.5 text-xs font-semibold text-amber-950">
      {H().hospitals.onDiversion(formatTime(until))}
    </span>
  )
}
