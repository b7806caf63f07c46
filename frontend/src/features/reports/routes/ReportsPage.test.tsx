import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import type { ResponseTimeReport, ResponseTimeRow } from '@/lib/types'
import { adminUser } from '@/test/fixtures'
import { json, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import ReportsPage from './ReportsPage'

afterEach(() => vi.unstubAllGlobals())

const none = { dispatch: null, answer: null, travel: null, onScene: null, transport: null, handover: null, response: null }
const stat = (count: number, p50: number, p90: number, max: number) => ({ count, p50, p90, max })
const row = (period: string, from: string, to: string, count: number, full: boolean): ResponseTimeRow => ({
  period,
  from,
  to,
  count,
  intervals: full
    ? { ...none, dispatch: stat(count, 0, 0, 0), answer: stat(count, 30, 80, 95), travel: stat(count, 600, 900, 1000), response: stat(count, 630, 980, 1095) }
    : none,
  withinTarget: full ? { answer: 0.5, pickup: 0.25 } : { answer: null, pickup: null },
  moved: full ? 2 : 0,
  unanswered: full ? 1 : 0,
  cancelled: full ? 3 : 0,
})
const bins = (edges: number[]) => edges.map((from, i) => ({ from, to: edges[i + 1] ?? null, count: i === 1 ? 4 : 0 }))
const report = (count: number): ResponseTimeReport => ({
  from: '2026-03-02',
  to: '2026-03-15',
  by: 'week',
  timeZone: 'Asia/Kolkata',
  targets: { answerSeconds: 60, pickupMinutes: 15 },
  rows: [row('2026-W10', '2026-03-02', '2026-03-08', 0, false), row('2026-W11', '2026-03-09', '2026-03-15', count, count > 0)],
  total: row('2026-03-02/2026-03-15', '2026-03-02', '2026-03-15', count, count > 0),
  histograms: { answer: bins([0, 15, 30, 45, 60]), response: bins([0, 300, 600, 900]) },
})

function open(answer: (call: FetchCall) => Response) {
  saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
  const stub = routeFetch({
    'GET /admin/reports/response-times': answer,
    'GET /hospitals/all': () => json(200, { content: [{ id: 7, name: 'City Hospital', address: 'A', latitude: 30, longitude: 74, contactInfo: null }], totalPages: 1, totalElements: 1, page: 0, size: 1000 }),
  })
  renderRoutes([{ path: '/admin/reports', element: <ReportsPage /> }], '/admin/reports')
  return stub
}

describe('ReportsPage', () => {
  it("asks for the server's 12 weeks, then shows the whole period's figures, the charts and every period's row", async () => {
    const { calls } = open(() => json(200, report(4)))
    expect(screen.getByRole('status')).toHaveTextContent('Loading the report...')
    const summary = within(await screen.findByRole('region', { name: 'The whole period' }))
    // No dates asked: the server's days (its time zone), shown in the date fields.
    const first = calls.find((c) => c.path === '/admin/reports/response-times')!
    expect([first.query.get('from'), first.query.get('to'), first.query.get('by'), first.query.get('type')]).toEqual([null, null, 'week', 'EMERGENCY'])
    expect(screen.getByLabelText('From')).toHaveValue('2026-03-02')
    expect(screen.getByLabelText('To')).toHaveValue('2026-03-15')
    expect(screen.getByText('Days as in Asia/Kolkata. A trip counts on the day it was called, once it has ended.')).toBeInTheDocument()
    expect(summary.getByText('Answer, 90th percentile').nextSibling).toHaveTextContent('1 min 20 s')
    expect(summary.getByText('Answered within 1 min').nextSibling).toHaveTextContent('50%')
    expect(summary.getByText('At the pickup within 15 min').nextSibling).toHaveTextContent('25%')
    expect(summary.getByText('Moved / Unanswered / Cancelled').nextSibling).toHaveTextContent('2 / 1 / 3')
    expect(screen.getByRole('img', { name: 'Answer: median and 90th percentile per period' })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'From the call to the pickup: 4 trips by time' })).toBeInTheDocument()
    const table = within(screen.getByRole('table', { name: /Figures per period/ }))
    const w11 = table.getByRole('rowheader', { name: /^2026-W11/ }).closest('tr')!
    // Trips, then dispatch (p50, p90, max), then answer's.
    expect([...w11.querySelectorAll('td')].slice(0, 7).map((c) => c.textContent)).toEqual(['4', '0:00', '0:00', '0:00', '0:30', '1:20', '1:35'])
    const empty = table.getByRole('rowheader', { name: /^2026-W10/ }).closest('tr')!
    expect(empty.querySelectorAll('td')[1]).toHaveTextContent('—')
    expect(table.getByRole('rowheader', { name: /^The whole period/ })).toBeInTheDocument()

    // A filter asks again, keeping the dates shown.
    await userEvent.selectOptions(screen.getByLabelText('Per'), 'day')
    await userEvent.selectOptions(await screen.findByLabelText('Hospital'), '7')
    await userEvent.click(screen.getByLabelText('Normal bookings'))
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/admin/reports/response-times').at(-1)!
      expect([last.query.get('by'), last.query.get('hospitalId'), last.query.get('type')]).toEqual(['day', '7', 'NORMAL'])
    })
  })

  it('downloads the CSV the server gives for the same filters', async () => {
    const created = vi.fn((_: Blob) => 'blob:report')
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }))
    // jsdom does not navigate: the link's click is seen, not followed.
    const saved: string[] = []
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download)
    })
    const { calls } = open((call) =>
      call.headers.Accept === 'text/csv'
        ? new Response('period,from,to\n2026-W11,2026-03-09,2026-03-15\n', { status: 200, headers: { 'Content-Type': 'text/csv; charset=utf-8' } })
        : json(200, report(4)),
    )
    await userEvent.click(await screen.findByRole('button', { name: 'Download CSV' }))
    await waitFor(() => expect(created).toHaveBeenCalled())
    const csv = calls.find((c) => c.headers.Accept === 'text/csv')!
    expect([csv.query.get('from'), csv.query.get('to'), csv.query.get('type')]).toEqual(['2026-03-02', '2026-03-15', 'EMERGENCY'])
    const read = (blob: Blob) =>
      new Promise<string>((resolve) => {
        const reader = new FileReader()
        reader.onload = () => resolve(String(reader.result))
        reader.readAsText(blob)
      })
    expect(await read(created.mock.calls[0]![0])).toBe('period,from,to\n2026-W11,2026-03-09,2026-03-15\n')
    expect(saved).toEqual(['response-times-2026-03-02-2026-03-15-emergency.csv'])
    click.mockRestore()
  })

  it('says so when no trip of the period has ended', async () => {
    open(() => json(200, report(0)))
    expect(await screen.findByRole('heading', { name: 'No finished trips' })).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it("shows the server's refusal, and a failure with a retry", async () => {
    let answers = 0
    open(() => (++answers === 1 ? json(500, { message: 'boom' }) : json(200, report(2))))
    expect(await screen.findByText('Failed to load the report')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('region', { name: 'The whole period' })).toBeInTheDocument()
  })
})
