import { useState, type ReactNode } from 'react'
import type { Push } from '@/lib/push/usePush'
import { S } from '@/strings'
import { Icon } from './Icon'

/**
 * The one explained step that lets this device ring (decision 0015): what it is for, the
 * button that opens the browser's prompt (never opened otherwise), and "Not now", which
 * is kept. Once on, a quiet line says so; after a failure, why and try again. Nothing in
 * the other states (refused, blocked, no support): the screen says what it must.
 */
export function PushStep({
  push,
  id,
  title,
  text,
  askLabel = S.push.turnOn,
  onText,
  className = 'card space-y-3 p-4',
  children,
}: {
  push: Push
  /** The heading's id (the step is a region named by it). */
  id: string
  title: string
  text: string
  askLabel?: string
  onText: string
  className?: string
  /** Shown under the failure (e.g. the crew's fallback). */
  children?: ReactNode
}) {
  const { view } = push
  // Working without a tap here: an allowed device subscribing again on its own, said quietly.
  const [tapped, setTapped] = useState(false)
  if (view === 'working' && !tapped) {
    return <p role="status" className="text-sm text-slate-600">{S.push.checking}</p>
  }
  if (view === 'on') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-green-800">
        <Icon name="bell" className="h-4 w-4 shrink-0" /> {onText}
      </p>
    )
  }
  if (view !== 'ask' && view !== 'working' && view !== 'failed') return null
  const working = view === 'working'
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="flex items-center gap-2 font-semibold">
        <Icon name="bell" className="h-5 w-5 shrink-0 text-brand-700" /> {title}
      </h2>
      <p className="text-sm text-slate-600">{text}</p>
      {view === 'failed' && <p role="alert" className="text-sm font-medium text-red-700">{S.push.failed}</p>}
      {children}
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className="btn-touch bg-brand-600 text-white hover:bg-brand-700"
          disabled={working}
          onClick={() => {
            setTapped(true)
            push.turnOn()
          }}
        >
          {working ? S.push.turningOn : view === 'failed' ? S.emergency.tryAgain : askLabel}
        </button>
        {view === 'ask' && (
          <button type="button" className="btn-touch border border-slate-300 bg-white text-slate-800 hover:bg-slate-100" onClick={push.notNow}>
            {S.push.notNow}
          </button>
        )}
      </div>
      {working && <span role="status" className="sr-only">{S.push.turningOn}</span>}
    </section>
  )
}
