import type { ReactNode } from 'react'
import { Link } from 'react-router'

/**
 * Back to the dashboard, the screen's title and its main action. With `subtitle` (null
 * while it has nothing to say) the title and the line under it share a block.
 */
export function AdminPageHeader({ title, subtitle, action }: { title: string; subtitle?: ReactNode; action: ReactNode }) {
  const heading = <h1 className="text-2xl font-bold">{title}</h1>
  return (
    <>
      <Link to="/admin" className="btn-ghost -ml-3">← Back to dashboard</Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        {subtitle === undefined ? heading : <div>{heading}{subtitle}</div>}
        {action}
      </div>
    </>
  )
}

/** 'Add X' / 'Close Form': shows and hides the screen's add form. */
export function AddFormToggle({ open, label, onToggle }: { open: boolean; label: string; onToggle: () => void }) {
  return (
    <button type="button" className="btn-primary" aria-expanded={open} onClick={onToggle}>
      {open ? 'Close Form' : label}
    </button>
  )
}
