import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { adminUser, hospital } from '@/test/fixtures'
import { json, LAZY_MAP, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { toBbox } from '../api/live'
import type { Live } from '@/lib/types'
import AdminLivePage from './AdminLivePage'

afterEach(() => vi.unstubAllGlobals())

const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
const live: Live = {
  ambulances: [
    { id: 31, number: 'PB-31', type: 'BLS', status: 'ON_DUTY', hospitalId: 3, position: { latitude: 30.68, longitude: 74.32, at: ago(5000), stale: false, source: 'GPS' }, positionDoubt: null },
    { id: 32, number: 'PB-32', type: 'ALS', status: 'AVAILABLE', hospitalId: 3, position: { latitude: 30.63, longitude: 74.3, at: null, stale: true, source: 'HOSPITAL' }, positionDoubt: null },
    {
      id: 33, number: 'PB-33', type: 'PTA', status: 'MAINTENANCE', hospitalId: 3,
      position: { latitude: 30.6, longitude: 74.2, at: ago(10 * 60_000), stale: true, source: 'GPS' },
      // Its phone says it is 111 km away, for 3 minutes now.
      positionDoubt: { latitude: 31.6, longitude: 74.2, at: ago(5000), since: ago(3 * 60_000 + 1000), speedKmh: 6658.4 },
    },
  ],
  openBookings: [{ id: 12, bookingType: 'EMERGENCY', bookingStatus: 'ACTIVE', tripStage: 'EN_ROUTE', pickup: { latitude: 30.7, longitude: 74.31 }, ambulanceId: 31 }],
}

function open(answer: (call: FetchCall) => Response) {
  saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
  const stub = routeFetch({
    'GET /hospitals/all': () => json(200, { content: [hospital(3, 'City Hospital'), hospital(4, 'Zeta Clinic')], totalPages: 1, totalElements: 2, page: 0, size: 1000 }),
    'GET /admin/live': answer,
    'GET /admin/alerts': () => json(200, []),
  })
  renderRoutes([{ path: '/admin/live', element: <AdminLivePage /> }], '/admin/live')
  return stub
}

describe('AdminLivePage', () => {
  it("asks for the map's view and lists every ambulance and open booking in it", async () => {
    const { calls } = open(() => json(200, live))
    expect(await screen.findByRole('region', { name: 'Live map of ambulances and open bookings' }, LAZY_MAP)).toBeInTheDocument()
    await waitFor(() => expect(calls.some((c) => c.path === '/admin/live')).toBe(true))
    const bbox = calls.find((c) => c.path === '/admin/live')!.query.get('bbox')!
    expect(bbox).toMatch(/^-?\d+(\.\d+)?(,-?\d+(\.\d+)?){3}$/)
    const ambulances = within(await screen.findByRole('region', { name: 'Ambulances in view (3)' }))
    expect(ambulances.getByText('PB-31')).toBeInTheDocument()
    expect(ambulances.getByText(/^Live · updated \d+ s ago$/)).toBeInTheDocument()
    expect(ambulances.getByText("No position reported yet: the hospital's location is shown instead")).toBeInTheDocument()
    expect(ambulances.getByText(/^Last known position, 10 min old/)).toBeInTheDocument()
    // A refused report tells the dispatcher to check, once, on its own ambulance.
    expect(ambulances.getByText('Check with the crew: their phone reports a place 6658 km/h away from this position (for 3 min)')).toBeInTheDocument()
    expect(ambulances.getAllByText(/^Check with the crew/)).toHaveLength(1)
    const bookings = within(screen.getByRole('region', { name: 'Open bookings in view (1)' }))
    expect(bookings.getByRole('link', { name: '#12' })).toHaveAttribute('href', '/bookings/12')
    expect(bookings.getByText('On the way to the pickup')).toBeInTheDocument()
    expect(bookings.getAllByText('PB-31').length).toBeGreaterThan(0)
    // The legend says what the colours mean.
    const map = within(screen.getByRole('region', { name: 'Live map of ambulances and open bookings' }))
    for (const item of ['Available', 'On duty', 'Maintenance', 'Emergency pickup']) expect(map.getByText(item)).toBeInTheDocument()
  })

  it('says when nothing is in view', async () => {
    open(() => json(200, { ambulances: [], openBookings: [] }))
    expect(await screen.findByText('Nothing in view')).toBeInTheDocument()
  })

  it('says "Failed to load the live map" with a retry', async () => {
    open(() => json(500, { message: 'boom' }))
    expect(await screen.findByText('Failed to load the live map')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})

describe('toBbox', () => {
  it('writes minLat,minLng,maxLat,maxLng, clamped to the world and rounded to 5 decimals', () => {
    expect(toBbox({ south: 30.123456789, west: 74.1, north: 30.9, east: 74.6 })).toBe('30.12346,74.1,30.9,74.6')
    expect(toBbox({ south: -95, west: -200, north: 95, east: 10 })).toBe('-90,-180,90,10')
    expect(toBbox({ south: -10, west: -300, north: 10, east: 200 })).toBe('-10,-180,10,180')
  })
})
