import type { ReactNode } from 'react'

/**
 * A button whose request is under way: disabled, and saying so ("Signing in...") until
 * the answer comes. A submit button unless `onClick` is given.
 */
export function BusyButton({
  busy,
  busyLabel,
  className,
  onClick,
  children,
}: {
  busy: boolean
  busyLabel: string
  className: string
  onClick?: () => void
  children: ReactNode
}) {
  return (
    <button type={onClick ? 'button' : 'submit'} className={className} disabled={busy} onClick={onClick}>
      {busy ? busyLabel : children}
    </button>
  )
}
