import { S } from '@/strings'

/** Pages 1..n around the current one: at most 5 buttons, sliding with the page. */
export function pageWindow(current: number, total: number, width = 5): number[] {
  if (total <= 0) return []
  const half = Math.floor(width / 2)
  let start = Math.max(1, current - half)
  const end = Math.min(total, start + width - 1)
  start = Math.max(1, end - width + 1)
  return Array.from({ length: end - start + 1 }, (_, i) => start + i)
}

/** Previous/Next and up to 5 page buttons; hidden when there is only one page. */
export function Pagination({
  page,
  totalPages,
  onPage,
}: {
  page: number
  totalPages: number
  onPage: (page: number) => void
}) {
  if (totalPages <= 1) return null
  return (
    <nav aria-label={S.common.pagination} className="flex flex-wrap items-center justify-center gap-2 py-4">
      <button type="button" className="btn-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {S.common.previous}
      </button>
      {pageWindow(page, totalPages).map((p) => (
        <button
          key={p}
          type="button"
          aria-current={p === page ? 'page' : undefined}
          aria-label={S.common.page(p)}
          className={p === page ? 'btn bg-blue-600 text-white' : 'btn-secondary'}
          onClick={() => onPage(p)}
        >
          {p}
        </button>
      ))}
      <button
        type="button"
        className="btn-secondary"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        {S.common.next}
      </button>
    </nav>
  )
}
