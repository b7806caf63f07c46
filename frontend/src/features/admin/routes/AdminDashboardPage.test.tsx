import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { adminUser, booking } from '@/test/fixtures'
import { json, renderRoutes, routeFetch } from '@/test/render'
import AdminDashboardPage from './AdminDashboardPage'

afterEach(() => vi.unstubAllGlobals())

const stats = {
  users: 1312,
  hospitals: 52,
  bookings: { total: 40, pending: 3, active: 2, completed: 30, cancelled: 5 },
  todayBookings: 6,
  ambulances: { total: 160, available: 101, onDuty: 41, maintenance: 18 },
}

function open(statsAnswer = () => json(200, stats)) {
  saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
  const stub = routeFetch({
    'GET /admin/stats': statsAnswer,
    'GET /admin/bookings/all/paged': () =>
      json(200, { content: [booking(9), booking(8), booking(7), booking(6)], totalPages: 1, totalElements: 4, page: 0, size: 10 }),
  })
  renderRoutes([{ path: '/admin', element: <AdminDashboardPage /> }], '/admin')
  return stub
}

describe('AdminDashboardPage', () => {
  it('shows the real figures of /admin/stats', async () => {
    open()
    const cards = await screen.findByRole('region', { name: 'Statistics' })
    expect(within(cards).getByText('Registered Users').nextElementSibling).toHaveTextContent('1,312')
    expect(within(cards).getByText('Hospitals').nextElementSibling).toHaveTextContent('52')
    expect(within(cards).getByText('Ambulances').nextElementSibling).toHaveTextContent('160')
    expect(within(cards).getByText('Total Bookings').nextElementSibling).toHaveTextContent('40')
    expect(cards).toHaveTextContent('6 today (UTC) · 5 open')
    const fleet = screen.getByRole('region', { name: 'Ambulance Status' })
    expect(fleet).toHaveTextContent('Available101')
    expect(fleet).toHaveTextContent('On Duty41')
    expect(fleet).toHaveTextContent('Maintenance18')
  })

  it('lists the three most recent bookings from page 0 of size 10', async () => {
    const { calls } = open()
    const recent = await screen.findByRole('region', { name: 'Recent Bookings' })
    expect(await within(recent).findAllByRole('listitem')).toHaveLength(3)
    expect(recent).toHaveTextContent('#9')
    expect(recent).not.toHaveTextContent('#6')
    const call = calls.find((c) => c.path === '/admin/bookings/all/paged')!
    expect(Object.fromEntries(call.query)).toEqual({ page: '0', size: '10' })
  })

  it('has the quick actions, the settings and the audit trail among them', async () => {
    open()
    expect(screen.getByRole('link', { name: /Manage Hospitals/ })).toHaveAttribute('href', '/admin/hospitals')
    expect(screen.getByRole('link', { name: /Manage Ambulances/ })).toHaveAttribute('href', '/admin/ambulances')
    expect(screen.getByRole('link', { name: /View All Bookings/ })).toHaveAttribute('href', '/admin/bookings')
    expect(screen.getByRole('link', { name: /Live Map/ })).toHaveAttribute('href', '/admin/live')
    expect(screen.getByRole('link', { name: /Manage Crew/ })).toHaveAttribute('href', '/admin/crew')
    expect(screen.getByRole('link', { name: /System Settings/ })).toHaveAttribute('href', '/admin/settings')
    expect(screen.getByRole('link', { name: /Audit Trail/ })).toHaveAttribute('href', '/admin/audit')
    await screen.findByRole('region', { name: 'Statistics' })
  })

  it("says 'Failed to load dashboard data. Please try again.' when the figures cannot load", async () => {
    open(() => json(500, { message: 'boom' }))
    expect(await screen.findByText('Failed to load dashboard data. Please try again.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})
