import type { ReactNode } from 'react'

/**
 * A screen's title, a line under it, and its main action on the right (below on
 * phones). `alignEnd` lines the action up with the bottom (an action that may grow a
 * message under it).
 */
export function PageHeader({
  title,
  subtitle,
  action,
  alignEnd = false,
}: {
  title: string
  subtitle?: ReactNode
  action?: ReactNode
  alignEnd?: boolean
}) {
  return (
    <div className={`flex flex-wrap justify-between ${alignEnd ? 'items-end gap-4' : 'items-center gap-3'}`}>
      <div>
        <h1 className="text-2xl font-bold">{title}</h1>
        {subtitle != null && subtitle !== false && <p className="text-sm text-slate-600">{subtitle}</p>}
      </div>
      {action}
    </div>
  )
}
