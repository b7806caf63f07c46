import { Section } from '@/components/Section'
import { ambulanceStatusLabel } from '@/lib/format'
import { S } from '@/strings'
import type { CrewMe, CrewStatus } from '@/lib/types'

/** The statuses a crew may choose, each with its look when chosen (its name: ambulanceStatusLabel). */
const choices: [CrewStatus, string][] = [
  ['AVAILABLE', 'bg-green-700 text-white border-green-700'],
  ['MAINTENANCE', 'bg-amber-500 text-slate-900 border-amber-500'],
]

/**
 * No job: the ambulance's status, and the switch between Available and Maintenance. After
 * a missed job (`notResponding`) the ambulance gets no jobs until its crew taps Available:
 * the panel says so, and Available is the one big button.
 */
export function IdlePanel({
  ambulance,
  busy,
  onStatus,
}: {
  ambulance: CrewMe['ambulance']
  busy: boolean
  onStatus: (status: CrewStatus) => void
}) {
  const missed = ambulance.notResponding != null
  return (
    <Section
      id="idle-heading"
      title={S.crew.idleTitle}
      intro={missed ? undefined : S.crew.idleText}
      className="card space-y-4 p-5"
      headingClassName="text-lg font-bold"
      introClassName="text-slate-600"
    >
      {missed && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          <p className="font-bold">{S.crew.missed}</p>
          <p className="text-sm">{S.crew.missedText}</p>
        </div>
      )}
      <div className="space-y-3 border-t border-slate-100 pt-4">
        {/* No badge here: the page's heading shows the status, the pressed button again. */}
        <h3 id="status-heading" className="font-semibold">{S.crew.statusHeading}</h3>
        <div role="group" aria-labelledby="status-heading" className="grid grid-cols-2 gap-3">
          {choices.map(([status, chosen]) => {
            const on = ambulance.status === status
            // Missed a job: Available takes the whole first row, solid green.
            const prominent = missed && status === 'AVAILABLE'
            return (
              <button
                key={status}
                type="button"
                aria-pressed={on}
                disabled={busy}
                onClick={() => !on && onStatus(status)}
                className={`btn-touch border-2 ${
                  prominent
                    ? 'col-span-2 min-h-16 border-green-700 bg-green-700 text-lg text-white hover:bg-green-800'
                    : on
                      ? chosen
                      : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100'
                }`}
              >
                {ambulanceStatusLabel[status]}
              </button>
            )
          })}
        </div>
        {ambulance.status === 'ON_DUTY' && !missed && <p className="text-sm text-slate-600">{S.crew.onDutyIdle}</p>}
      </div>
    </Section>
  )
}
