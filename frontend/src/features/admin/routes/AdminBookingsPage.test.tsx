import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import type { Booking } from '@/lib/types'
import { adminUser, booking } from '@/test/fixtures'
import { elapse, fakeClock } from '@/test/clock'
import { json, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import AdminBookingsPage from './AdminBookingsPage'

afterEach(() => vi.unstubAllGlobals())

// `moves` as the server answers them to an admin: the statuses the dropdown may offer.
const page0: Booking[] = [
  booking(14, { bookingStatus: 'PENDING', userEmail: 'asha@example.com', hospitalName: 'City Hospital', moves: ['ACTIVE', 'COMPLETED', 'CANCELLED'] }),
  booking(13, { bookingStatus: 'ACTIVE', userEmail: 'ravi@example.com', hospitalName: 'Civil Hospital', moves: ['COMPLETED', 'CANCELLED'] }),
  booking(12, { bookingStatus: 'COMPLETED', hospitalName: 'Alpha Care' }),
  booking(11, { bookingStatus: 'CANCELLED', hospitalName: 'Alpha Care' }),
]

function open(
  pages: (page: number) => Response = (p) =>
    json(200, { content: p === 0 ? page0 : [booking(3, { hospitalName: 'Old Hospital' })], totalPages: 7, totalElements: 64, page: p, size: 10 }),
  status: (call: FetchCall) => Response = (c) => json(200, booking(Number(c.query.get('bookingId')), { bookingStatus: c.query.get('status') as never })),
) {
  saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
  const stub = routeFetch({
    'GET /admin/bookings/all/paged': (c) => pages(Number(c.query.get('page'))),
    'PATCH /admin/bookings/status': status,
    // The one booking, whole (its opening recorded by the server).
    'GET /booking/14': () => json(200, { ...page0[0], patient: { name: 'Asha', age: 67, gender: 'Female', condition: 'Chest pain, since morning' } }),
  })
  renderRoutes([{ path: '/admin/bookings', element: <AdminBookingsPage /> }], '/admin/bookings')
  return stub
}

const rowOf = (id: number) => screen.getByRole('cell', { name: new RegExp(`^#${id}\\b`) }).closest('tr')!
const options = (select: HTMLElement) => within(select).getAllByRole('option').map((o) => o.textContent)

describe('AdminBookingsPage', () => {
  it('asks for page 0 of size 10 and shows the spec columns', async () => {
    const { calls } = open()
    await screen.findByText('#14')
    expect(Object.fromEntries(calls[0]!.query)).toEqual({ page: '0', size: '10' })
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Booking Details',
      'User',
      'Hospital',
      'Ambulance',
      'Booking Time',
      'Status',
      'Actions',
    ])
    const row = within(rowOf(14))
    expect(row.getByText('asha@example.com')).toBeInTheDocument()
    expect(row.getByText('PB-44')).toBeInTheDocument()
    expect(row.getByText('Ravi Kumar')).toBeInTheDocument()
  })

  it('links each booking to its tracking page', async () => {
    open()
    await screen.findByText('#14')
    expect(within(rowOf(14)).getByRole('link', { name: 'Track booking 14' })).toHaveAttribute('href', '/bookings/14')
  })

  it("offers exactly the server's moves in the status dropdown, beside the current status", async () => {
    open()
    await screen.findByText('#14')
    expect(options(within(rowOf(14)).getByRole('combobox', { name: 'Status of booking 14' }))).toEqual(['PENDING', 'ACTIVE', 'COMPLETED', 'CANCELLED'])
    expect(options(within(rowOf(13)).getByRole('combobox', { name: 'Status of booking 13' }))).toEqual(['ACTIVE', 'COMPLETED', 'CANCELLED'])
    // No moves (a final booking): a badge, no dropdown.
    expect(within(rowOf(12)).queryByRole('combobox')).not.toBeInTheDocument()
    expect(within(rowOf(12)).getByText('COMPLETED')).toBeInTheDocument()
    expect(within(rowOf(11)).queryByRole('combobox')).not.toBeInTheDocument()
  })

  it('offers nothing the server does not list, whatever the status', async () => {
    const odd = [
      booking(14, { bookingStatus: 'PENDING', moves: ['CANCELLED'] }),
      booking(13, { bookingStatus: 'ACTIVE', moves: [] }),
    ]
    open(() => json(200, { content: odd, totalPages: 1, totalElements: 2, page: 0, size: 10 }))
    await screen.findByText('#14')
    expect(options(within(rowOf(14)).getByRole('combobox', { name: 'Status of booking 14' }))).toEqual(['PENDING', 'CANCELLED'])
    expect(within(rowOf(13)).queryByRole('combobox')).not.toBeInTheDocument()
  })

  it('sends the move and says it worked; the message clears after 2.5 s', async () => {
    const user = fakeClock()
    const { calls } = open()
    await screen.findByText('#14')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status of booking 14' }), 'ACTIVE')
    expect(await screen.findByText('Booking status updated successfully!')).toBeInTheDocument()
    const patch = calls.find((c) => c.method === 'PATCH')!
    expect(Object.fromEntries(patch.query)).toEqual({ bookingId: '14', status: 'ACTIVE' })
    await elapse(2500)
    expect(screen.queryByText('Booking status updated successfully!')).not.toBeInTheDocument()
  })

  it("shows the server's reason for a refused move and 'Failed to update booking status' otherwise", async () => {
    let answer = json(409, { message: 'Cannot move booking 14 from COMPLETED to ACTIVE' })
    open(undefined, () => answer)
    await screen.findByText('#14')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status of booking 14' }), 'ACTIVE')
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot move booking 14 from COMPLETED to ACTIVE')
    answer = json(503, { message: 'Database unavailable' })
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status of booking 14' }), 'CANCELLED')
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to update booking status'))
  })

  it('counts the statuses on the loaded page', async () => {
    open()
    const counts = screen.getByRole('region', { name: 'Booking counts on this page' })
    expect(within(counts).getAllByText('…')).toHaveLength(4)
    await screen.findByText('#14')
    const card = (label: string) => within(counts).getByText(label).previousElementSibling?.textContent
    expect([card('Total'), card('Active'), card('Completed'), card('Cancelled')]).toEqual(['4', '1', '1', '1'])
  })

  it('searches by id, user email, hospital name and ambulance number, and filters by status', async () => {
    open()
    await screen.findByText('#14')
    const search = screen.getByLabelText('Search bookings')
    const ids = () => screen.queryAllByText(/^#\d+$/).map((n) => n.textContent)
    await userEvent.type(search, '13')
    expect(ids()).toEqual(['#13'])
    await userEvent.clear(search)
    await userEvent.type(search, 'ASHA@')
    expect(ids()).toEqual(['#14'])
    await userEvent.clear(search)
    await userEvent.type(search, 'alpha')
    expect(ids()).toEqual(['#12', '#11'])
    await userEvent.clear(search)
    await userEvent.type(search, 'pb-43')
    expect(ids()).toEqual(['#13'])
    await userEvent.clear(search)
    await userEvent.selectOptions(screen.getByLabelText('Filter by status'), 'CANCELLED')
    expect(ids()).toEqual(['#11'])
    await userEvent.type(search, 'City')
    expect(screen.getByText('No Bookings Found')).toBeInTheDocument()
    expect(screen.getByText('No bookings match your search criteria.')).toBeInTheDocument()
  })

  it('pages on the server with Previous/Next and a 5-button window', async () => {
    const { calls } = open()
    await screen.findByText('#14')
    const nav = screen.getByRole('navigation', { name: 'Pagination' })
    expect(within(nav).getAllByRole('button', { name: /^Page/ }).map((b) => b.textContent)).toEqual(['1', '2', '3', '4', '5'])
    expect(within(nav).getByRole('button', { name: 'Previous' })).toBeDisabled()
    await userEvent.click(within(nav).getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Old Hospital')).toBeInTheDocument()
    expect(calls.at(-1)!.query.get('page')).toBe('1')
  })

  it('opens the details of a booking in a dialog, its patient from the booking itself', async () => {
    const { calls } = open()
    await screen.findByText('#14')
    expect(calls.some((c) => c.path === '/booking/14')).toBe(false)
    await userEvent.click(screen.getByRole('button', { name: 'View booking 14' }))
    const dialog = screen.getByRole('dialog', { name: 'Booking #14' })
    expect(await within(dialog).findByText('Chest pain, since morning')).toBeInTheDocument()
    expect(dialog).toHaveTextContent('Asha, 67')
    expect(dialog).toHaveTextContent('Each opening of a patient’s details is recorded')
    expect(calls.filter((c) => c.path === '/booking/14')).toHaveLength(1)
    expect(dialog).toHaveTextContent('asha@example.com')
    expect(dialog).toHaveTextContent('City Hospital, 3 Main Road')
    expect(dialog).toHaveTextContent('PB-44 · Basic life support')
    expect(dialog).toHaveTextContent('Ravi Kumar')
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it("says 'No bookings have been made yet.' when there are none", async () => {
    open(() => json(200, { content: [], totalPages: 0, totalElements: 0, page: 0, size: 10 }))
    expect(await screen.findByText('No bookings have been made yet.')).toBeInTheDocument()
    expect(screen.getByText('No Bookings Found')).toBeInTheDocument()
  })

  it("says 'Failed to fetch bookings' when the page cannot load", async () => {
    open(() => json(500, { message: 'boom' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch bookings')
  })
})
