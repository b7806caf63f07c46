import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { call, callText } from '@/lib/api'
import { queryRoots } from '@/lib/queryKeys'
import type { BookingType } from '@/lib/types'

export type Period = 'day' | 'week' | 'month'

/** What the report screen asks for: the query of GET /admin/reports/response-times. */
export interface ReportParams {
  /** null (both): the 12 weeks up to today in the service's time zone, as the server counts days. */
  from: string | null
  to: string | null
  by: Period
  /** null: the whole service. */
  hospitalId: number | null
  type: BookingType
}

const query = (p: ReportParams) => ({
  ...(p.from === null ? {} : { from: p.from }),
  ...(p.to === null ? {} : { to: p.to }),
  by: p.by,
  type: p.type,
  ...(p.hospitalId === null ? {} : { hospitalId: p.hospitalId }),
})

/** The report; changing a filter keeps the last figures on screen until the new ones come. */
export function useResponseTimes(params: ReportParams) {
  return useQuery({
    queryKey: [...queryRoots.admin, 'reports', 'response-times', params] as const,
    queryFn: () => call('GET /admin/reports/response-times', { query: query(params) }),
    placeholderData: keepPreviousData,
  })
}

/** The same rows as CSV (the server's, so the file and the screen never differ), saved as a download. */
export async function downloadCsv(params: ReportParams & { from: string; to: string }): Promise<void> {
  const text = await callText('GET /admin/reports/response-times', 'text/csv', { query: query(params) })
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = `response-times-${params.from}-${params.to}-${params.type.toLowerCase()}${params.hospitalId === null ? '' : `-hospital-${params.hospitalId}`}.csv`
  document.body.appendChild(link)
  link.click()
  link.remove()
  URL.revokeObjectURL(url)
}
