import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import type { Booking } from '@/lib/types'
import { booking, demoUser } from '@/test/fixtures'
import { json, renderRoutes, routeFetch } from '@/test/render'
import { pollWhileOpen } from '../api/bookings'
import HistoryPage from './HistoryPage'

afterEach(() => vi.unstubAllGlobals())

function open(list: () => Response, cancel = (id: number) => json(200, booking(id, { bookingStatus: 'CANCELLED' }))) {
  saveSession({ token: 't', user: demoUser, role: 'USER', id: demoUser.id })
  const stub = routeFetch({
    'GET /booking/history': list,
    'PATCH /booking/cancel': (c) => cancel(Number(c.query.get('bookingId'))),
  })
  renderRoutes(
    [
      { path: '/history', element: <HistoryPage /> },
      { path: '/booking', element: <h1>Booking form</h1> },
    ],
    '/history',
  )
  return stub
}

// `moves` as the server answers them to the requester: CANCELLED while they may cancel.
const mixed: Booking[] = [
  booking(5, { bookingStatus: 'PENDING', bookingType: 'EMERGENCY', moves: ['CANCELLED'] }),
  booking(4, { bookingStatus: 'ACTIVE', tripStage: 'DISPATCHED', moves: ['CANCELLED'] }),
  booking(3, { bookingStatus: 'COMPLETED' }),
  booking(2, { bookingStatus: 'CANCELLED' }),
  booking(1, { bookingStatus: 'COMPLETED' }),
]

describe('HistoryPage', () => {
  it("links every row to its tracking page; Cancel where the server's moves list CANCELLED", async () => {
    const rows = [
      booking(7, { bookingStatus: 'ACTIVE', tripStage: 'AT_PICKUP', moves: [] }),
      booking(6, { bookingStatus: 'ACTIVE', tripStage: 'EN_ROUTE', moves: ['CANCELLED'] }),
      booking(3, { bookingStatus: 'COMPLETED' }),
    ]
    open(() => json(200, rows))
    expect(await screen.findByRole('link', { name: 'Track booking 7' })).toHaveAttribute('href', '/bookings/7')
    expect(screen.getByRole('link', { name: 'Track booking 3' })).toHaveAttribute('href', '/bookings/3')
    expect(screen.getByText('At the pickup')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Cancel booking 7' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Cancel booking 6' })).toBeInTheDocument()
  })

  it('shows the totals and a row per booking with its details and coloured status', async () => {
    const { calls } = open(() => json(200, mixed))
    const totals = await screen.findByRole('region', { name: 'Booking totals' })
    const card = (label: string) => within(totals).getByText(label).previousElementSibling?.textContent
    expect(card('Total Bookings')).toBe('5')
    expect(card('Active')).toBe('1')
    expect(card('Completed')).toBe('2')
    expect(card('Cancelled')).toBe('1')
    const rows = screen.getAllByRole('row').slice(1)
    expect(rows).toHaveLength(5)
    const first = within(rows[0]!)
    expect(first.getByText('City Hospital')).toBeInTheDocument()
    expect(first.getByText('PB-35')).toBeInTheDocument()
    expect(first.getByText('Patient 5')).toBeInTheDocument()
    expect(first.getByText('Emergency')).toBeInTheDocument()
    expect(first.getByText('PENDING')).toHaveClass('bg-yellow-100')
    expect(within(rows[2]!).getByText('COMPLETED')).toHaveClass('bg-green-100')
    expect(within(rows[3]!).getByText('CANCELLED')).toHaveClass('bg-red-100')
    expect(calls[0]!.query.get('userId')).toBe('7')
  })

  it('styles an unknown status like PENDING', async () => {
    open(() => json(200, [booking(1, { bookingStatus: 'ON_HOLD' as never })]))
    expect(await screen.findByText('ON_HOLD')).toHaveClass('bg-yellow-100')
  })

  it('offers Cancel only where the server lists it (its open bookings)', async () => {
    open(() => json(200, mixed))
    await screen.findByRole('region', { name: 'Booking totals' })
    expect(screen.getAllByRole('button', { name: /^Cancel booking/ }).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Cancel booking 5',
      'Cancel booking 4',
    ])
  })

  it('cancels after a confirmation; Keep Booking sends nothing', async () => {
    let list = mixed
    const { calls } = open(() => json(200, list))
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel booking 5' }))
    let dialog = screen.getByRole('dialog', { name: 'Cancel Booking' })
    expect(dialog).toHaveTextContent('Cancel the booking of ambulance PB-35 for Patient 5?')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep Booking' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false)

    await userEvent.click(screen.getByRole('button', { name: 'Cancel booking 5' }))
    dialog = screen.getByRole('dialog', { name: 'Cancel Booking' })
    list = [booking(5, { bookingStatus: 'CANCELLED' }), ...mixed.slice(1)]
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel Booking' }))
    expect(await screen.findByText('Booking cancelled.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')!.query.get('bookingId')).toBe('5')
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel booking 5' })).not.toBeInTheDocument())
  })

  it("shows the server's reason when a cancel is refused", async () => {
    open(
      () => json(200, mixed),
      () => json(409, { message: 'Cannot move booking 5 from COMPLETED to CANCELLED' }),
    )
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel booking 5' }))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel Booking' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot move booking 5 from COMPLETED to CANCELLED')
  })

  it('links the empty history to /booking', async () => {
    open(() => json(200, []))
    const link = await screen.findByRole('link', { name: 'Book your first ambulance' })
    expect(link).toHaveAttribute('href', '/booking')
  })

  it("says 'Failed to fetch booking history' when it cannot load", async () => {
    open(() => json(500, { message: 'boom' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch booking history')
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('polls every 10 s only while a booking is PENDING or ACTIVE', () => {
    expect(pollWhileOpen(undefined)).toBe(false)
    expect(pollWhileOpen([])).toBe(false)
    expect(pollWhileOpen([booking(1, { bookingStatus: 'COMPLETED' }), booking(2, { bookingStatus: 'CANCELLED' })])).toBe(false)
    expect(pollWhileOpen([booking(1, { bookingStatus: 'COMPLETED' }), booking(2, { bookingStatus: 'ACTIVE' })])).toBe(10_000)
    expect(pollWhileOpen([booking(1)])).toBe(10_000)
  })
})
