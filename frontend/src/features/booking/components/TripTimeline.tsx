import { formatTime } from '@/lib/format'
import { S } from '@/strings'
import { stageLabel } from '@/lib/trip/status'
import type { TimelineRow } from '@/lib/trip/timeline'

const dot = {
  done: 'border-green-600 bg-green-600',
  current: 'border-blue-600 bg-white ring-4 ring-blue-100',
  todo: 'border-slate-300 bg-white',
}

/** The trip's steps, top to bottom: done (green, with times), now (blue), to come (grey). */
export function TripTimeline({ rows }: { rows: TimelineRow[] }) {
  return (
    <ol className="space-y-0">
      {rows.map((r, i) => (
        <li key={`${r.stage}-${i}`} className="relative flex gap-3 pb-4 last:pb-0" aria-current={r.state === 'current' ? 'step' : undefined}>
          {i < rows.length - 1 && <span className="absolute left-[7px] top-4 h-full w-0.5 bg-slate-200" aria-hidden="true" />}
          <span className={`relative mt-1 h-4 w-4 shrink-0 rounded-full border-2 ${dot[r.state]}`} aria-hidden="true" />
          <span className="flex flex-1 flex-wrap items-baseline justify-between gap-x-3">
            <span className={r.state === 'todo' ? 'text-slate-500' : r.state === 'current' ? 'font-semibold text-slate-900' : 'text-slate-800'}>
              {stageLabel(r.stage)}
              {r.state === 'current' && <span className="ml-2 rounded-full bg-blue-100 px-2 py-0.5 text-xs font-semibold text-blue-800">{S.tracking.now}</span>}
              {r.stage === 'REASSIGNED' && <MoveDetail row={r} />}
            </span>
            {r.at && <time dateTime={r.at} className="text-sm tabular-nums text-slate-600">{formatTime(r.at)}</time>}
          </span>
        </li>
      ))}
    </ol>
  )
}

/** "From AMB-01: no answer from its crew", with whatever of the two the entry has. */
function MoveDetail({ row }: { row: TimelineRow }) {
  const why = row.reason ? S.reassigned[row.reason] : null
  const parts = [row.fromAmbulance ? S.reassigned.from(row.fromAmbulance) : null, why].filter(Boolean)
  if (parts.length === 0) return null
  return <span className="block text-sm text-slate-600">{parts.join(': ')}</span>
}
