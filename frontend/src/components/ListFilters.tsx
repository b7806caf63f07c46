import { ALL, type PagedFilter } from '@/lib/usePagedFilter'
import { S as strings } from '@/strings'

/**
 * The search box (and the status filter) above a list, driven by usePagedFilter. Both
 * are labelled for screen readers only; the placeholder says what the search looks at.
 */
export function ListFilters<S extends string>({
  list,
  search,
  status,
}: {
  list: PagedFilter<S>
  search: { id: string; label: string; placeholder: string; className: string; type?: 'search' }
  status?: { id: string; options: { value: S; label: string }[] }
}) {
  return (
    <div className="flex flex-wrap gap-3">
      <label htmlFor={search.id} className="sr-only">{search.label}</label>
      <input
        id={search.id}
        type={search.type}
        className={`input ${search.className}`}
        placeholder={search.placeholder}
        value={list.search}
        onChange={(e) => list.setSearch(e.target.value)}
      />
      {status && (
        <>
          <label htmlFor={status.id} className="sr-only">{strings.common.filterByStatus}</label>
          <select
            id={status.id}
            className="input max-w-[12rem]"
            value={list.status}
            onChange={(e) => list.setStatus(e.target.value as S | typeof ALL)}
          >
            <option value={ALL}>{strings.common.allStatus}</option>
            {status.options.map((o) => (
              <option key={o.value} value={o.value}>{o.label}</option>
            ))}
          </select>
        </>
      )}
    </div>
  )
}
