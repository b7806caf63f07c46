import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent, type MouseEvent, type ReactNode } from 'react'

/** How long a press must last: long enough that a pocket or a stray tap does not send, short enough for an emergency. */
export const HOLD_MS = 1500

const holdKeys = new Set([' ', 'Enter'])

/**
 * A button that acts only when held (a finger, the mouse, or Space or Enter held down)
 * for `holdMs`, filling up as it is held; letting go early, scrolling or moving focus
 * away cancels. A click with no press behind it (a screen reader or a switch
 * activating the button) cannot hold, so it opens a second, ordinary button instead:
 * two deliberate steps, never one accidental tap.
 */
export function HoldButton({
  label,
  holdingLabel,
  busyLabel,
  hint,
  confirmLabel,
  cancelLabel,
  busy = false,
  disabled = false,
  holdMs = HOLD_MS,
  icon,
  onConfirm,
}: {
  label: string
  holdingLabel: string
  busyLabel: string
  /** How to use it, read with the button (e.g. "Press and hold for 1.5 seconds..."). */
  hint: string
  /** The second step for clicks without a press ("Yes, send an ambulance now"). */
  confirmLabel: string
  cancelLabel: string
  busy?: boolean
  disabled?: boolean
  holdMs?: number
  icon?: ReactNode
  onConfirm: () => void
}) {
  const [holding, setHolding] = useState(false)
  const [asking, setAsking] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  // When a key or pointer press last ended: a click right after it is not a screen reader's.
  const lastPress = useRef(0)
  const confirmRef = useRef<HTMLButtonElement>(null)
  // The hold ends later than it began: act on what the page knows then, not at the press.
  const latestConfirm = useRef(onConfirm)
  useEffect(() => {
    latestConfirm.current = onConfirm
  })
  const hintId = useId()
  const off = disabled || busy

  // Lets go of a hold. Only a press's own end (a finger, the mouse or a key released)
  // marks the press: focus merely passing through the button (Tab, a screen reader
  // moving on) must not make the next assistive click look like the tail of a press.
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
    setHolding(false)
  }
  const stop = () => {
    lastPress.current = Date.now()
    cancel()
  }
  const start = () => {
    if (off || timer.current) return
    setAsking(false)
    setHolding(true)
    timer.current = setTimeout(() => {
      timer.current = null
      setHolding(false)
      latestConfirm.current()
    }, holdMs)
  }
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current)
  }, [])
  useEffect(() => {
    if (asking) confirmRef.current?.focus()
  }, [asking])

  const onPointerDown = (e: PointerEvent<HTMLButtonElement>) => {
    // The main button only (a right click opens no hold).
    if (e.button > 0) return
    // Keep receiving the release even if the finger slides a little.
    e.currentTarget.setPointerCapture?.(e.pointerId)
    start()
  }
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (!holdKeys.has(e.key)) return
    // No click from the key: only holding it counts.
    e.preventDefault()
    if (!e.repeat) start()
  }
  const onKeyUp = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (!holdKeys.has(e.key)) return
    e.preventDefault()
    stop()
  }
  const onClick = (e: MouseEvent<HTMLButtonElement>) => {
    // detail 0 and no press just before: activated by assistive technology, which cannot hold.
    if (e.detail === 0 && Date.now() - lastPress.current > 500 && !off) setAsking(true)
  }

  return (
    <div className="space-y-3">
      <button
        type="button"
        aria-describedby={hintId}
        disabled={off}
        onPointerDown={onPointerDown}
        onPointerUp={stop}
        onPointerCancel={stop}
        onLostPointerCapture={stop}
        onKeyDown={onKeyDown}
        onKeyUp={onKeyUp}
        onBlur={cancel}
        onClick={onClick}
        onContextMenu={(e) => e.preventDefault()}
        className="relative isolate flex min-h-20 w-full touch-manipulation select-none items-center justify-center gap-3 overflow-hidden rounded-2xl bg-slate-900 px-6 py-5 text-xl font-bold text-white shadow-lg transition [-webkit-touch-callout:none] hover:bg-slate-800 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {/* The fill: grows over holdMs while held, snaps back when let go. */}
        <span
          aria-hidden="true"
          data-testid="hold-progress"
          className="absolute inset-0 -z-10 origin-left bg-brand-700"
          style={{
            transform: `scaleX(${holding ? 1 : 0})`,
            transition: `transform ${holding ? holdMs : 150}ms linear`,
          }}
        />
        {icon}
        <span>{busy ? busyLabel : holding ? holdingLabel : label}</span>
      </button>
      <p id={hintId} className="text-center text-sm text-slate-600">{hint}</p>
      {asking && (
        <div className="flex flex-wrap justify-center gap-3">
          <button
            ref={confirmRef}
            type="button"
            className="btn-touch bg-brand-700 text-white hover:bg-brand-800"
            onClick={() => {
              setAsking(false)
              onConfirm()
            }}
          >
            {confirmLabel}
          </button>
          <button type="button" className="btn-touch border border-slate-300 bg-white text-slate-800" onClick={() => setAsking(false)}>
            {cancelLabel}
          </button>
        </div>
      )}
    </div>
  )
}
