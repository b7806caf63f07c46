export interface Count {
  label: string
  /** undefined while loading: shown as '…'. */
  value: number | undefined
  /** The figure's colour, e.g. 'text-green-700'. */
  style: string
}

/** A row of figures with labels: two columns on phones, four from md up. */
export function CountCards({ label, counts }: { label: string; counts: Count[] }) {
  return (
    <section aria-label={label} className="grid grid-cols-2 gap-4 md:grid-cols-4">
      {counts.map((c) => (
        <div key={c.label} className="card p-4">
          <p className={`text-2xl font-bold ${c.style}`}>{c.value ?? '…'}</p>
          <p className="text-sm text-slate-600">{c.label}</p>
        </div>
      ))}
    </section>
  )
}
