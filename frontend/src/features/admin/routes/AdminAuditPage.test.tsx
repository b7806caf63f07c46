import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import type { AuditRecord } from '@/lib/types'
import { adminUser } from '@/test/fixtures'
import { json, renderRoutes, routeFetch } from '@/test/render'
import AdminAuditPage from './AdminAuditPage'

afterEach(() => vi.unstubAllGlobals())

const reassign: AuditRecord = {
  at: '2026-12-01T10:05:00.000Z',
  by: { id: 1, username: 'admin' },
  action: 'BOOKING_REASSIGNED',
  target: { kind: 'BOOKING', id: 12, bookingId: 12, ambulanceIds: [3, 7] },
  before: { ambulanceNumber: 'AMB-03', status: 'ACTIVE' },
  after: { ambulanceNumber: 'AMB-07', status: 'ACTIVE' },
}
const settings: AuditRecord = {
  at: '2026-12-01T10:00:00.000Z',
  by: { id: 2, username: 'nightshift' },
  action: 'SETTINGS_CHANGED',
  target: { kind: 'SETTINGS' },
  before: { emergencyAnswerSeconds: 60, presenceDelaySeconds: { ONLINE: 15 } },
  after: { emergencyAnswerSeconds: 45, presenceDelaySeconds: { ONLINE: 20 } },
}
const ack: AuditRecord = {
  at: '2026-12-01T09:00:00.000Z',
  by: { id: 1, username: 'admin' },
  action: 'ALERT_ACKNOWLEDGED',
  target: { kind: 'ALERT', id: 4, name: 'UNANSWERED', bookingId: 12, ambulanceIds: [3] },
}

function open(path = '/admin/audit') {
  saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
  const stub = routeFetch({
    'GET /admin/audit': (c) =>
      c.query.get('cursor') === 'older' ? json(200, { items: [ack] }) : json(200, { items: [reassign, settings], cursor: 'older' }),
    'GET /admin/ambulances/all': () => json(200, []),
  })
  renderRoutes([{ path: '/admin/audit', element: <AdminAuditPage /> }], path)
  return stub
}

describe('AdminAuditPage', () => {
  it('lists who did what to what, newest first, before and after, and pages on', async () => {
    const { calls } = open()
    const table = await screen.findByRole('table', { name: 'Audit records, newest first' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toHaveTextContent('Reassigned a booking')
    expect(rows[0]).toHaveTextContent('ambulance number: AMB-03 → AMB-07')
    expect(within(rows[0]!).getByRole('link', { name: 'Booking #12' })).toHaveAttribute('href', '/admin/audit?bookingId=12')
    expect(rows[1]).toHaveTextContent('nightshift')
    expect(rows[1]).toHaveTextContent('Emergency answer window: 60 → 45')
    expect(rows[1]).toHaveTextContent('presenceDelaySeconds: ONLINE 15 → ONLINE 20')

    await userEvent.setup().click(screen.getByRole('button', { name: 'Show older records' }))
    expect(await screen.findByText('Acknowledged an alert')).toBeInTheDocument()
    expect(screen.getByText('Alert #4 (UNANSWERED)')).toBeInTheDocument()
    expect(screen.getByText('No older records.')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/admin/audit').map((c) => c.query.get('cursor'))).toEqual([null, 'older'])
  })

  it('filters by booking and admin through the address, and clears', async () => {
    const { calls } = open('/admin/audit?ambulanceId=3')
    await screen.findByRole('table')
    expect(Object.fromEntries(calls.find((c) => c.path === '/admin/audit')!.query)).toEqual({ ambulanceId: '3' })
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Booking number'), '12')
    await user.selectOptions(screen.getByLabelText('Admin'), 'Me (admin)')
    await user.click(screen.getByRole('button', { name: 'Filter' }))
    await screen.findByRole('button', { name: 'Clear filters' })
    const last = () => Object.fromEntries(calls.filter((c) => c.path === '/admin/audit').at(-1)!.query)
    expect(last()).toEqual({ bookingId: '12', ambulanceId: '3', adminId: '1' })
    await user.click(screen.getByRole('button', { name: 'Clear filters' }))
    await screen.findByRole('table')
    expect(last()).toEqual({})
  })

  it('says when nothing matches, and when the trail cannot be read', async () => {
    saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
    routeFetch({ 'GET /admin/audit': () => json(200, { items: [] }), 'GET /admin/ambulances/all': () => json(200, []) })
    renderRoutes([{ path: '/admin/audit', element: <AdminAuditPage /> }], '/admin/audit')
    expect(await screen.findByText('No records')).toBeInTheDocument()
    vi.unstubAllGlobals()
    routeFetch({ 'GET /admin/audit': () => json(500, { message: 'boom' }), 'GET /admin/ambulances/all': () => json(200, []) })
    renderRoutes([{ path: '/admin/audit', element: <AdminAuditPage /> }], '/admin/audit?bookingId=99')
    expect(await screen.findByText('Failed to load the audit trail')).toBeInTheDocument()
  })
})
