import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { adminUser } from '@/test/fixtures'
import { fakePush } from '@/test/push'
import { json, LAZY_MAP, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { extentOf, loadView, toBbox } from '../api/live'
import type { Alert, Live } from '@/lib/types'
import AdminLivePage from './AdminLivePage'

afterEach(() => vi.unstubAllGlobals())

const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
const live: Live = {
  ambulances: [
    { id: 31, number: 'PB-31', type: 'BLS', status: 'ON_DUTY', hospitalId: 3, position: { latitude: 30.68, longitude: 74.32, at: ago(5000), stale: false, source: 'GPS' }, positionDoubt: null, notResponding: null, crewPresence: 'ONLINE' },
    { id: 32, number: 'PB-32', type: 'ALS', status: 'AVAILABLE', hospitalId: 3, position: { latitude: 30.63, longitude: 74.3, at: null, stale: true, source: 'HOSPITAL' }, positionDoubt: null, notResponding: null, crewPresence: 'NO_CREW' },
    {
      id: 33, number: 'PB-33', type: 'PTA', status: 'MAINTENANCE', hospitalId: 3,
      position: { latitude: 30.6, longitude: 74.2, at: ago(10 * 60_000), stale: true, source: 'GPS' },
      // Its phone says it is 111 km away, for 3 minutes now.
      positionDoubt: { latitude: 31.6, longitude: 74.2, accuracyM: 12, at: ago(5000), since: ago(3 * 60_000 + 1000), speedKmh: 6658.4, reason: 'SPEED', reports: 2 },
      // It let a job's answer deadline pass 2 minutes ago (decision 0012).
      notResponding: ago(2 * 60_000 + 1000),
      crewPresence: 'OFFLINE',
    },
  ],
  openBookings: [{ id: 12, bookingType: 'EMERGENCY', bookingStatus: 'ACTIVE', tripStage: 'EN_ROUTE', pickup: { latitude: 30.7, longitude: 74.31 }, ambulanceId: 31 }],
  truncated: false,
}
const nothing: Live = { ambulances: [], openBookings: [], truncated: false }

function open(answer: (call: FetchCall) => Response, alerts: Alert[] = []) {
  saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
  const stub = routeFetch({ 'GET /admin/live': answer, 'GET /admin/alerts': () => json(200, { items: alerts }) })
  renderRoutes([{ path: '/admin/live', element: <AdminLivePage /> }], '/admin/live')
  return stub
}

describe('AdminLivePage', () => {
  it("opens on where the fleet is, then asks for the map's view and lists every ambulance and open booking in it", async () => {
    const { calls } = open(() => json(200, live))
    expect(await screen.findByRole('region', { name: 'Live map of ambulances and open bookings' }, LAZY_MAP)).toBeInTheDocument()
    // First the whole world (no bbox) to find the fleet, then the view fitted on it.
    await waitFor(() => expect(calls.filter((c) => c.path === '/admin/live')).toHaveLength(2))
    const [first, second] = calls.filter((c) => c.path === '/admin/live')
    expect(first!.query.get('bbox')).toBeNull()
    const bbox = second!.query.get('bbox')!
    expect(bbox).toMatch(/^-?\d+(\.\d+)?(,-?\d+(\.\d+)?){3}$/)
    // The view is on the fleet (30.58 to 30.72 N, 74.18 to 74.34 E), not the world (jsdom's map has no size:
    // its view is its middle).
    const [s, w, n, e] = bbox.split(',').map(Number)
    expect((s! + n!) / 2).toBeCloseTo(30.65, 2)
    expect((w! + e!) / 2).toBeCloseTo(74.26, 2)
    // ... and is kept for the next visit.
    expect(loadView()).not.toBeNull()
    const ambulances = within(await screen.findByRole('region', { name: 'Ambulances in view (3)' }))
    expect(ambulances.getByText('PB-31')).toBeInTheDocument()
    expect(ambulances.getByText(/^Live · updated \d+ s ago$/)).toBeInTheDocument()
    expect(ambulances.getByText("No position reported yet: the hospital's location is shown instead")).toBeInTheDocument()
    expect(ambulances.getByText(/^Last known position, 10 min old/)).toBeInTheDocument()
    // A refused report tells the dispatcher to check, once, on its own ambulance.
    expect(ambulances.getByText('Check with the crew: their phone reports a place 6658 km/h away from this position (for 3 min)')).toBeInTheDocument()
    expect(ambulances.getAllByText(/^Check with the crew/)).toHaveLength(1)
    expect(ambulances.getByText('Not responding: missed a job 2 min ago')).toBeInTheDocument()
    const bookings = within(screen.getByRole('region', { name: 'Open bookings in view (1)' }))
    expect(bookings.getByRole('link', { name: '#12' })).toHaveAttribute('href', '/bookings/12')
    expect(bookings.getByText('On the way to the pickup')).toBeInTheDocument()
    expect(bookings.getAllByText('PB-31').length).toBeGreaterThan(0)
    // The legend says what the colours mean.
    const map = within(screen.getByRole('region', { name: 'Live map of ambulances and open bookings' }))
    for (const item of ['Available', 'On duty', 'Maintenance', 'Emergency pickup']) expect(map.getByText(item)).toBeInTheDocument()
    expect(screen.queryByText('Showing the 500 most urgent; zoom in for all')).not.toBeInTheDocument()
  })

  it('shows each crew presence, rings the online ones in the legend, and filters by presence', async () => {
    open(() => json(200, live))
    const ambulances = () => within(screen.getByRole('region', { name: /^Ambulances in view/ }))
    await screen.findByRole('region', { name: 'Ambulances in view (3)' }, LAZY_MAP)
    for (const shown of ['Crew online', 'No crew', 'Crew offline']) expect(ambulances().getByText(shown)).toBeInTheDocument()
    const map = within(screen.getByRole('region', { name: 'Live map of ambulances and open bookings' }))
    expect(map.getByText('Ring: crew online')).toBeInTheDocument()
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Crew' }), 'Crew online')
    expect(await screen.findByRole('region', { name: 'Ambulances in view (1)' })).toBeInTheDocument()
    expect(ambulances().getByText('PB-31')).toBeInTheDocument()
    expect(ambulances().queryByText('PB-32')).not.toBeInTheDocument()
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Crew' }), 'No crew')
    expect(await screen.findByRole('region', { name: 'Ambulances in view (1)' })).toBeInTheDocument()
    expect(ambulances().getByText('PB-32')).toBeInTheDocument()
  })

  it("opens on the dispatcher's last view without looking for the fleet", async () => {
    localStorage.setItem('admin.liveView', JSON.stringify({ center: [12.97, 77.59], zoom: 11 }))
    const { calls } = open(() => json(200, live))
    expect(await screen.findByRole('region', { name: 'Live map of ambulances and open bookings' }, LAZY_MAP)).toBeInTheDocument()
    await waitFor(() => expect(calls.some((c) => c.path === '/admin/live')).toBe(true))
    const asked = calls.filter((c) => c.path === '/admin/live')
    expect(asked.every((c) => c.query.get('bbox') !== null)).toBe(true)
    const [s, w, n, e] = asked[0]!.query.get('bbox')!.split(',').map(Number)
    expect((s! + n!) / 2).toBeCloseTo(12.97, 2)
    expect((w! + e!) / 2).toBeCloseTo(77.59, 2)
  })

  it('says when more than 500 are in view', async () => {
    open(() => json(200, { ...live, truncated: true }))
    expect(await screen.findByText('Showing the 500 most urgent; zoom in for all', {}, LAZY_MAP)).toBeInTheDocument()
  })

  it('says when nothing is in view', async () => {
    localStorage.setItem('admin.liveView', JSON.stringify({ center: [12.97, 77.59], zoom: 11 }))
    open(() => json(200, nothing))
    expect(await screen.findByText('Nothing in view', {}, LAZY_MAP)).toBeInTheDocument()
  })

  it('says when there is no fleet anywhere yet', async () => {
    open(() => json(200, nothing))
    expect(await screen.findByText('No ambulances yet', {}, LAZY_MAP)).toBeInTheDocument()
  })

  it('says "Failed to find the fleet" with a retry', async () => {
    open(() => json(500, { message: 'boom' }))
    expect(await screen.findByText('Failed to find the fleet')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('says "Failed to load the live map" with a retry', async () => {
    localStorage.setItem('admin.liveView', JSON.stringify({ center: [12.97, 77.59], zoom: 11 }))
    open(() => json(500, { message: 'boom' }))
    expect(await screen.findByText('Failed to load the live map', {}, LAZY_MAP)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})

describe('extentOf and loadView', () => {
  it('boxes every ambulance and pickup; none is no box', () => {
    const box = extentOf(live)!
    expect([box.south, box.west, box.north, box.east].map((v) => v.toFixed(2))).toEqual(['30.58', '74.18', '30.72', '74.34'])
    expect(extentOf(nothing)).toBeNull()
  })

  it('reads only a view that makes sense', () => {
    for (const bad of ['{', '"x"', '{"center":[100,0],"zoom":3}', '{"center":[0,0]}', 'null']) {
      localStorage.setItem('admin.liveView', bad)
      expect(loadView()).toBeNull()
    }
    localStorage.setItem('admin.liveView', '{"center":[1,2],"zoom":3}')
    expect(loadView()).toEqual({ center: [1, 2], zoom: 3 })
  })
})

describe('toBbox', () => {
  it('writes minLat,minLng,maxLat,maxLng, clamped to the world and rounded to 5 decimals', () => {
    expect(toBbox({ south: 30.123456789, west: 74.1, north: 30.9, east: 74.6 })).toBe('30.12346,74.1,30.9,74.6')
    expect(toBbox({ south: -95, west: -200, north: 95, east: 10 })).toBe('-90,-180,90,10')
    expect(toBbox({ south: -10, west: -300, north: 10, east: 200 })).toBe('-10,-180,10,180')
  })
})

describe('AdminLivePage: alerts on this computer', () => {
  it('offers notifications for alerts without asking by itself; "Not now" is kept', async () => {
    const push = fakePush('default')
    open(() => json(200, nothing))
    const step = await screen.findByRole('region', { name: 'Alerts on this computer' })
    expect(within(step).getByRole('button', { name: 'Notify me of new alerts' })).toBeEnabled()
    expect(push.requestPermission).not.toHaveBeenCalled()
    await userEvent.click(within(step).getByRole('button', { name: 'Not now' }))
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Alerts on this computer' })).not.toBeInTheDocument())
    expect(localStorage.getItem('push.declined.admin')).toBe('1')
  })

  it('a browser without push shows no step', async () => {
    open(() => json(200, nothing))
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Alerts on this computer' })).not.toBeInTheDocument()
  })
})

// The dispatcher's console (docs/decisions/0024-a-console-row-acts-alone.md).
describe('AdminLivePage: the console', () => {
  const far: Alert = { id: 9, kind: 'NO_AMBULANCE', pickup: { latitude: 12.5, longitude: 77.5 }, count: 2, since: ago(60_000) }
  const job: Alert = { id: 7, kind: 'UNANSWERED', bookingId: 12, ambulanceId: 31, ambulanceNumber: 'PB-31', pickup: { latitude: 30.7, longitude: 74.31 }, since: ago(30_000) }

  it('on a phone, Map and Queue tabs, the queue counting the open alerts', async () => {
    const user = userEvent.setup()
    open(() => json(200, live), [job, far])
    const tabs = within(screen.getByRole('tablist', { name: 'Map and queue' }))
    expect(await tabs.findByRole('tab', { name: 'Queue (2)' })).toHaveAttribute('aria-selected', 'false')
    expect(tabs.getByRole('tab', { name: 'Map' })).toHaveAttribute('aria-selected', 'true')
    const mapPanel = document.getElementById('console-map')!
    const queuePanel = document.getElementById('console-queue')!
    // Hidden below 1024 px only (lg:block shows both side by side on a desktop).
    expect(queuePanel).toHaveClass('hidden', 'lg:block')
    expect(mapPanel).not.toHaveClass('hidden')
    await user.click(tabs.getByRole('tab', { name: 'Queue (2)' }))
    expect(tabs.getByRole('tab', { name: 'Queue (2)' })).toHaveAttribute('aria-selected', 'true')
    expect(mapPanel).toHaveClass('hidden', 'lg:block')
    expect(queuePanel).not.toHaveClass('hidden')
    // The arrow keys move between the tabs.
    await user.keyboard('{ArrowLeft}')
    expect(tabs.getByRole('tab', { name: 'Map' })).toHaveFocus()
    expect(mapPanel).not.toHaveClass('hidden')
  })

  it('choosing a row centres the map on its pickup, and on a phone shows the map', async () => {
    const user = userEvent.setup()
    localStorage.setItem('admin.liveView', JSON.stringify({ center: [30.65, 74.3], zoom: 11 }))
    open(() => json(200, live), [job, far])
    await screen.findByRole('region', { name: 'Live map of ambulances and open bookings' }, LAZY_MAP)
    await user.click(await screen.findByRole('tab', { name: 'Queue (2)' }))
    const rows = within(screen.getByRole('region', { name: 'Alerts (2)' })).getAllByRole('listitem')
    await user.click(within(rows[1]!).getByRole('button', { name: 'Show on map' }))
    expect(screen.getByRole('tab', { name: 'Map' })).toHaveAttribute('aria-selected', 'true')
    // The map's own centre, as it keeps it for the next visit (moveend).
    await waitFor(() => expect(loadView()?.center[0]).toBeCloseTo(12.5, 3))
    expect(loadView()!.center[1]).toBeCloseTo(77.5, 3)
    expect(loadView()!.zoom).toBeGreaterThanOrEqual(14)
    expect(rows[1]).toHaveAttribute('aria-current', 'true')
    // A click on the row itself chooses it too.
    await user.click(rows[0]!.querySelector('p')!)
    await waitFor(() => expect(loadView()?.center[0]).toBeCloseTo(30.7, 3))
    expect(rows[0]).toHaveAttribute('aria-current', 'true')
  })

  it('an alert with no place (an ambulance not responding): chosen, the map centres on its ambulance', async () => {
    const user = userEvent.setup()
    localStorage.setItem('admin.liveView', JSON.stringify({ center: [12.97, 77.59], zoom: 11 }))
    const missed: Alert = { id: 8, kind: 'NOT_RESPONDING', ambulanceId: 31, ambulanceNumber: 'PB-31', since: ago(60_000) }
    open(() => json(200, live), [missed])
    // The map has its view's answer (PB-31 at 30.68, 74.32) before the row is chosen.
    await screen.findByRole('region', { name: 'Ambulances in view (3)' }, LAZY_MAP)
    const row = within(screen.getByRole('region', { name: 'Alerts (1)' })).getByRole('listitem')
    await user.click(row.querySelector('p')!)
    await waitFor(() => expect(loadView()?.center[0]).toBeCloseTo(30.68, 3))
    expect(loadView()!.center[1]).toBeCloseTo(74.32, 3)
  })
})
