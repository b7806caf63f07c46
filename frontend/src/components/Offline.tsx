import { useEmergencyNumber } from '@/lib/useEmergencyNumber'
import { formatAge } from '@/lib/format'
import { useOnline } from '@/lib/online'
import { S } from '@/strings'
import { CallEmergency } from './CallEmergency'
import { useNow } from './LiveClock'

/** Across the top of every screen while offline: the app still opens, and the call button still dials. */
export function OfflineBanner() {
  useEmergencyNumber()
  if (useOnline()) return null
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50 text-amber-950">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm">
        <p className="font-medium">{S.offline.banner}</p>
        <CallEmergency className="btn bg-brand-700 px-3 py-1.5 text-white hover:bg-brand-800" iconClass="h-4 w-4" />
      </div>
    </div>
  )
}

/** After this long without a new answer, a screen that polls says how old what it shows is. */
export const STALE_AFTER_MS = 15_000

/**
 * How old the data on screen is, when it may be out of date: offline, the last refresh
 * failed, or nothing new for a while. `updatedAt`: TanStack Query's dataUpdatedAt.
 */
export function LastUpdated({ updatedAt, failing }: { updatedAt: number; failing: boolean }) {
  const online = useOnline()
  const now = useNow(1000).getTime()
  const age = now - updatedAt
  if (online && !failing && age < STALE_AFTER_MS) return null
  const text = !online ? S.offline.lastUpdated(formatAge(age)) : failing ? S.offline.notUpdating(formatAge(age)) : S.offline.updatedAgo(formatAge(age))
  return (
    <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-2 text-sm font-medium text-amber-950">
      {text}
    </p>
  )
}
