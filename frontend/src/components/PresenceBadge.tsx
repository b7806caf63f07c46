import type { CrewPresence } from '@/lib/types'
import { S } from '@/strings'

const styles: Record<CrewPresence, { pill: string; dot: string }> = {
  ONLINE: { pill: 'bg-emerald-50 text-emerald-900 ring-emerald-600', dot: 'bg-emerald-600' },
  OFFLINE: { pill: 'bg-slate-100 text-slate-700 ring-slate-400', dot: 'bg-slate-400' },
  NO_CREW: { pill: 'bg-white text-slate-600 ring-slate-300', dot: 'border border-slate-500 bg-white' },
}

/**
 * Whether the ambulance's crew can answer now (decision 0020): "Crew online" with a solid dot, "Crew
 * offline", "No crew" with a hollow one. Nothing when the server did not say (signed-out lists).
 */
export function PresenceBadge({ presence }: { presence: CrewPresence | undefined }) {
  if (!presence) return null
  const style = styles[presence]
  return (
    <span className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${style.pill}`}>
      <span className={`h-2 w-2 rounded-full ${style.dot}`} aria-hidden="true" />
      {S.presence[presence]}
    </span>
  )
}
