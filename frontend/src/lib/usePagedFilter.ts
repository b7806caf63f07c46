import { useMemo, useState } from 'react'

/** A status filter's "everything" choice ('All Status'). */
export const ALL = 'ALL'

/**
 * A list searched by text and filtered by status, and, with `pageSize`, paged here in
 * the browser: changing the search or the filter goes back to page 1, and the page is
 * kept within the pages there are. Without `pageSize` the caller pages (on the server).
 */
export function usePagedFilter<T, S extends string = string>({
  items,
  matches,
  statusOf,
  pageSize,
}: {
  items: T[]
  /** Whether `item` matches the search, trimmed and lowercased (never empty here). */
  matches: (item: T, query: string) => boolean
  statusOf?: (item: T) => string
  pageSize?: number
}) {
  const [search, setSearchText] = useState('')
  const [status, setStatusChoice] = useState<S | typeof ALL>(ALL)
  const [page, setPage] = useState(1)

  const filtered = useMemo(() => {
    const query = search.trim().toLowerCase()
    return items.filter(
      (item) => (status === ALL || statusOf?.(item) === status) && (!query || matches(item, query)),
    )
  }, [items, search, status, matches, statusOf])

  const totalPages = pageSize ? Math.ceil(filtered.length / pageSize) : 1
  const current = Math.min(page, Math.max(totalPages, 1))
  const start = pageSize ? (current - 1) * pageSize : 0
  const shown = pageSize ? filtered.slice(start, start + pageSize) : filtered

  return {
    search,
    setSearch: (text: string) => {
      setSearchText(text)
      if (pageSize) setPage(1)
    },
    status,
    setStatus: (choice: S | typeof ALL) => {
      setStatusChoice(choice)
      if (pageSize) setPage(1)
    },
    /** A search or a filter is set, so an empty list means "nothing matches". */
    filtering: search.trim() !== '' || status !== ALL,
    filtered,
    /** The page shown (1-based), the items on it and the index of its first item. */
    page: current,
    setPage,
    totalPages,
    shown,
    start,
  }
}

export type PagedFilter<S extends string = string> = Pick<
  ReturnType<typeof usePagedFilter<unknown, S>>,
  'search' | 'setSearch' | 'status' | 'setStatus'
>
