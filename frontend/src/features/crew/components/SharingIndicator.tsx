import { useNow } from '@/components/LiveClock'
import { formatAge } from '@/lib/format'
import { S } from '@/strings'
import type { SharingState } from '../useLocationSharing'

const dot: Record<SharingState, string> = {
  unsupported: 'bg-red-600',
  denied: 'bg-red-600',
  unavailable: 'bg-amber-500',
  locating: 'bg-amber-500 animate-pulse',
  sharing: 'bg-green-600',
  failing: 'bg-amber-500',
  checking: 'bg-amber-500 animate-pulse',
}

/** Whether the ambulance's position reaches dispatch and the patient, and when it last did. */
export function SharingIndicator({ state, lastSentAt }: { state: SharingState; lastSentAt: number | null }) {
  const now = useNow(5000).getTime()
  const bad = state === 'denied' || state === 'unsupported'
  return (
    <p
      className={`flex min-h-12 items-center gap-3 rounded-xl border px-4 py-2 text-sm font-medium ${
        bad ? 'border-red-200 bg-red-50 text-red-800' : 'border-slate-200 bg-white text-slate-800'
      }`}
    >
      <span className={`h-3 w-3 shrink-0 rounded-full ${dot[state]}`} aria-hidden="true" />
      {/* Announced when the state changes; the age ticking beside it is not. */}
      <span role="status">{S.crew.sharing[state]}</span>
      {state === 'sharing' && lastSentAt !== null && (
        <span className="font-normal text-slate-600">· {S.crew.sharing.sentAgo(formatAge(now - lastSentAt))}</span>
      )}
    </p>
  )
}
