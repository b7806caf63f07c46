import { useInfiniteQuery } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { adminKeys } from './keys'

/** What the trail is filtered by (absent: any). */
export interface AuditFilter {
  bookingId?: number
  ambulanceId?: number
  adminId?: number
}

/** The audit trail, newest first, a page (50 records) at a time: `fetchNextPage` for older ones. */
export function useAuditTrail(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: adminKeys.audit(filter),
    queryFn: ({ pageParam }) => call('GET /admin/audit', { query: { ...filter, ...(pageParam ? { cursor: pageParam } : {}) } }),
    initialPageParam: '',
    getNextPageParam: (last) => last.cursor,
  })
}
