import type { ReactNode } from 'react'

export interface Column<T> {
  /** The column's heading, and the label its cells show on phones. */
  name: string
  /** Heading for screen readers only, and no label on phones (an actions column). */
  hidden?: boolean
  /** Classes added to each cell's `px-4 md:py-3`. */
  className?: string
  cell: (row: T) => ReactNode
}

/**
 * A table in a card that becomes a stack of cards on phones (`stack-table` in
 * index.css: each cell names its column through data-label).
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string
  columns: Column<T>[]
  rows: T[]
  rowKey: (row: T) => string | number
}) {
  return (
    <div className="card overflow-hidden">
      <table className="stack-table w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            {columns.map((c) => (
              <th key={c.name} scope="col" className="px-4 py-3">
                {c.hidden ? <span className="sr-only">{c.name}</span> : c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="align-top">
              {columns.map((c) => (
                <td key={c.name} data-label={c.hidden ? undefined : c.name} className={c.className ? `px-4 md:py-3 ${c.className}` : 'px-4 md:py-3'}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/**
 * A cell of two lines: what the row is (`main`, in `mainClassName`) and, when there is
 * one, a smaller detail under it (an email, an address, the driver).
 */
export function CellLines({
  main,
  detail,
  mainClassName = 'font-medium',
  className,
}: {
  main: ReactNode
  detail?: ReactNode
  mainClassName?: string
  className?: string
}) {
  return (
    <span className={className}>
      <span className={`block ${mainClassName}`}>{main}</span>
      {detail && <span className="block text-xs text-slate-500">{detail}</span>}
    </span>
  )
}
