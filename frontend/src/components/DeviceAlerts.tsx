import { Icon } from '@/components/Icon'
import { PushStep } from '@/components/PushStep'
import type { Push } from '@/lib/push/usePush'
import type { WakeLockState } from '@/lib/useWakeLock'
import { S } from '@/strings'

/** What a screen that must hear its events says about this device's alerts. */
export interface DeviceAlertsText {
  ask: string
  askText: string
  on: string
  off: string
  offText: string
  awake: string
}

/**
 * Whether this device rings for what its screen waits for (a crew's new job, an
 * ambulance coming to a hospital). Never asked: the one explained step. On: a quiet line.
 * Otherwise (no, blocked, no support, a failure) it says plainly that alerts are off and
 * the screen must stay open, and whether the screen is being kept on.
 */
export function DeviceAlerts({ push, awake, text = S.push.crew }: { push: Push; awake: WakeLockState; text?: DeviceAlertsText }) {
  const { view } = push
  const awakeLine = awake === 'held' && <p className="text-sm font-medium">{text.awake}</p>
  if (view === 'ask' || view === 'working' || view === 'on') {
    return <PushStep push={push} id="push-heading" title={text.ask} text={text.askText} onText={text.on} />
  }
  if (view === 'failed') {
    return (
      <PushStep push={push} id="push-heading" title={text.off} text={text.offText} onText={text.on} className="space-y-3 rounded-xl border-2 border-amber-400 bg-amber-50 p-4 text-amber-950">
        {awakeLine}
      </PushStep>
    )
  }
  const why = view === 'denied' ? S.push.denied : view === 'unsupported' ? S.push.unsupported : null
  return (
    <section aria-labelledby="push-heading" className="space-y-2 rounded-xl border-2 border-amber-400 bg-amber-50 p-4 text-amber-950">
      <h2 id="push-heading" className="flex items-center gap-2 text-lg font-bold">
        <Icon name="bellOff" className="h-6 w-6 shrink-0" /> {text.off}
      </h2>
      <p className="text-sm">{text.offText}</p>
      {why && <p className="text-sm">{why}</p>}
      {awakeLine}
      {/* A "Not now" can be undone here by the person's own tap; nothing asks them again. */}
      {view === 'declined' && (
        <button type="button" className="btn-touch border border-amber-700 bg-white text-amber-950 hover:bg-amber-100" onClick={push.turnOn}>
          {S.push.turnOn}
        </button>
      )}
    </section>
  )
}
