import { onlineManager } from '@tanstack/react-query'
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { demoUser } from '@/test/fixtures'
import { json, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import type { SharedTrip } from '@/lib/types'
import SharedTrackingPage from './SharedTrackingPage'

afterEach(() => {
  vi.unstubAllGlobals()
  onlineManager.setOnline(true)
})

const shared = (overrides: Partial<SharedTrip> = {}): SharedTrip => ({
  bookingStatus: 'ACTIVE',
  tripStage: 'EN_ROUTE',
  timeline: [
    { stage: 'ACTIVE', at: '2026-03-01T09:31:00Z' },
    { stage: 'DISPATCHED', at: '2026-03-01T09:31:00Z' },
    { stage: 'EN_ROUTE', at: '2026-03-01T09:32:00Z' },
  ],
  ambulance: { number: 'PB-31', type: 'ALS', position: { latitude: 30.68, longitude: 74.32, at: new Date(Date.now() - 5000).toISOString(), stale: false, source: 'GPS' } },
  hospital: { name: 'City Hospital', address: '3 Main Road', latitude: 30.63, longitude: 74.3 },
  etaMinutes: 6,
  ...overrides,
})

function open(routes: Record<string, (call: FetchCall) => Response>) {
  const stub = routeFetch(routes)
  renderRoutes([{ path: '/t/:token', element: <SharedTrackingPage /> }], '/t/tok-1')
  return stub
}

describe('SharedTrackingPage', () => {
  it('shows the stage, the ETA, the destination and the ambulance on the map, and sends no one’s token', async () => {
    // Even in a browser where someone is signed in: the link is all it needs.
    saveSession({ token: 'secret', user: demoUser, role: 'USER', id: demoUser.id })
    const { calls } = open({ 'GET /booking/shared/tok-1': () => json(200, shared()) })
    expect(await screen.findByRole('heading', { name: 'Ambulance on its way' })).toBeInTheDocument()
    expect(screen.getByText('On the way to the pickup · Ambulance PB-31 (Advanced life support)')).toBeInTheDocument()
    const eta = within(screen.getByRole('region', { name: 'Arriving at the pickup in' }))
    expect(eta.getByText('About 6 min')).toBeInTheDocument()
    const destination = within(screen.getByRole('region', { name: 'Destination hospital' }))
    expect(destination.getByText('City Hospital')).toBeInTheDocument()
    expect(destination.getByText('3 Main Road')).toBeInTheDocument()
    const map = await screen.findByRole('region', { name: 'Map of the ambulance and the destination hospital' }, { timeout: 5000 })
    expect(within(map).queryByText('Pickup')).not.toBeInTheDocument()
    expect(calls[0]!.headers.Authorization).toBeUndefined()
  })

  it('follows the trip: a new stage shows without reload', async () => {
    let answer = shared()
    open({ 'GET /booking/shared/tok-1': () => json(200, answer) })
    expect(await screen.findByText('About 6 min')).toBeInTheDocument()
    answer = shared({ tripStage: 'AT_PICKUP', etaMinutes: null })
    expect(await screen.findByText('The ambulance is at the pickup.', {}, { timeout: 7000 })).toBeInTheDocument()
  }, 10_000)

  it('one message for a link unknown, expired or stopped, without a retry', async () => {
    open({ 'GET /booking/shared/tok-1': () => json(404, { message: 'Not found' }) })
    expect(await screen.findByRole('heading', { name: 'This tracking link does not work' })).toBeInTheDocument()
    expect(screen.getByText('It is unknown, has expired, or sharing was stopped. Ask the person who sent it for a new one.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()
  })

  it('a link stopped while the page is open says so at the next update', async () => {
    let stopped = false
    open({ 'GET /booking/shared/tok-1': () => (stopped ? json(404, { message: 'Not found' }) : json(200, shared())) })
    expect(await screen.findByText('About 6 min')).toBeInTheDocument()
    stopped = true
    expect(await screen.findByRole('heading', { name: 'This tracking link does not work' }, { timeout: 7000 })).toBeInTheDocument()
    expect(screen.queryByText('About 6 min')).not.toBeInTheDocument()
  }, 10_000)

  it('offline: the last state stays, with its age', async () => {
    open({ 'GET /booking/shared/tok-1': () => json(200, shared()) })
    expect(await screen.findByText('About 6 min')).toBeInTheDocument()
    act(() => onlineManager.setOnline(false))
    expect(await screen.findByText(/^Offline, last updated \d+ s ago/)).toBeInTheDocument()
    expect(screen.getByText('About 6 min')).toBeInTheDocument()
  })

  it('other failures can be retried', async () => {
    let fail = true
    open({ 'GET /booking/shared/tok-1': () => (fail ? json(503, { message: 'down' }) : json(200, shared())) })
    expect(await screen.findByText('Failed to load the trip')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('About 6 min')).toBeInTheDocument()
  })
})
