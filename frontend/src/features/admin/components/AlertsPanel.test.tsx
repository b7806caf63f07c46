import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { adminUser } from '@/test/fixtures'
import { json, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { elapse, fakeClock } from '@/test/clock'
import type { Alert, FreeAmbulance } from '@/lib/types'
import { adminKeys } from '../api/keys'
import { AlertsPanel } from './AlertsPanel'
import type { QueueRow } from '../api/queue'
import { beep } from '@/lib/sound'

vi.mock('@/lib/sound', () => ({ beep: vi.fn(), unlockAudioOnGesture: () => () => {} }))

const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
const unanswered: Alert = {
  id: 7, kind: 'UNANSWERED', bookingId: 12, ambulanceId: 31, ambulanceNumber: 'PB-31',
  pickup: { latitude: 30.7, longitude: 74.35 }, since: ago(3 * 60_000 + 5000),
}
const notResponding: Alert = { id: 8, kind: 'NOT_RESPONDING', ambulanceId: 31, ambulanceNumber: 'PB-31', since: ago(2 * 60_000) }
const noAmbulance: Alert = { id: 9, kind: 'NO_AMBULANCE', pickup: { latitude: 30.1, longitude: 74.1 }, since: ago(20_000) }
const ended: Alert = { id: 5, kind: 'UNANSWERED', bookingId: 4, since: ago(3_600_000), closedAt: ago(60_000) }
const free: FreeAmbulance[] = [
  { id: 40, number: 'PB-40', type: 'BLS', hospitalId: 3, distanceKm: 1.234, crewPresence: 'ONLINE', etaMinutes: 3, expectedStartSeconds: 170 },
  { id: 41, number: 'PB-41', type: 'ALS', hospitalId: 3, distanceKm: 3.46, crewPresence: 'NO_CREW', etaMinutes: 8, expectedStartSeconds: 556 },
]

let title: string
beforeEach(() => {
  title = document.title
  document.title = 'AmbuCare'
  vi.mocked(beep).mockClear()
})
afterEach(() => {
  vi.unstubAllGlobals()
  document.title = title
})

function open(routes: Record<string, (call: FetchCall) => Response>, onSelect?: (row: QueueRow) => void) {
  saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
  const stub = routeFetch(routes)
  const view = renderRoutes(
    [
      { path: '/admin/live', element: <AlertsPanel onSelect={onSelect} /> },
      { path: '/bookings/:id', element: <p>booking page</p> },
    ],
    '/admin/live',
  )
  return { ...stub, ...view }
}

const panel = () => within(screen.getByRole('region', { name: /^Alerts/ }))

const callStation: Alert = {
  id: 10, kind: 'CALL_STATION', bookingId: 13, ambulanceId: 32, ambulanceNumber: 'PB-32', crewPresence: 'NO_CREW',
  hospitalId: 3, hospitalName: 'City Hospital', phone: '+91 100 200', pickup: { latitude: 30.7, longitude: 74.35 }, since: ago(4000),
}

describe('AlertsPanel', () => {
  it('a job for a crew that is not online: says to phone its station, with the number to tap', async () => {
    open({ 'GET /admin/alerts': () => json(200, [{ ...unanswered, moves: 2 }, callStation]) })
    expect(await screen.findByRole('heading', { name: 'Alerts (2)' })).toBeInTheDocument()
    const [first, second] = panel().getAllByRole('listitem') as [HTMLElement, HTMLElement]
    expect(first).toHaveTextContent('Moved on by itself 2 times so far')
    expect(second).toHaveTextContent('Crew not online: phone the station')
    expect(within(second).getByRole('link', { name: 'Phone station +91 100 200' })).toHaveAttribute('href', 'tel:+91100200')
    expect(within(second).getByRole('button', { name: 'Reassign' })).toBeInTheDocument()
  })

  it('lists the open alerts oldest first in plain words, links the booking, and leaves the ended ones out', async () => {
    open({ 'GET /admin/alerts': () => json(200, [unanswered, notResponding, ended]) })
    expect(await screen.findByRole('heading', { name: 'Alerts (2)' })).toBeInTheDocument()
    const items = panel().getAllByRole('listitem')
    expect(items).toHaveLength(2)
    const [first, second] = items as [HTMLElement, HTMLElement]
    expect(first).toHaveTextContent('No answer from the crew')
    expect(first).toHaveTextContent('Ambulance PB-31')
    expect(first).toHaveTextContent(/Open 3:0\d/)
    expect(within(first).getByRole('link', { name: 'Booking #12' })).toHaveAttribute('href', '/bookings/12')
    expect(within(first).getByRole('button', { name: 'Reassign' })).toBeInTheDocument()
    expect(second).toHaveTextContent('Ambulance not responding')
    expect(second).toHaveTextContent(/Open 2:0\d/)
    // Nothing to reassign: the ambulance has no booking.
    expect(within(second).queryByRole('button', { name: 'Reassign' })).not.toBeInTheDocument()
    expect(within(second).getByRole('button', { name: 'Acknowledge' })).toBeInTheDocument()
    expect(screen.queryByText('Booking #4')).not.toBeInTheDocument()
  })

  it('beeps for a new alert, not for the ones there when the page opened, and counts them in the title', async () => {
    let answer: Alert[] = [unanswered]
    const { client } = open({ 'GET /admin/alerts': () => json(200, answer) })
    expect(await screen.findByRole('heading', { name: 'Alerts (1)' })).toBeInTheDocument()
    expect(document.title).toBe('(1) Live map — AmbuCare')
    expect(beep).not.toHaveBeenCalled()

    answer = [unanswered, noAmbulance]
    await client.invalidateQueries({ queryKey: adminKeys.alerts() })
    expect(await screen.findByRole('heading', { name: 'Alerts (2)' })).toBeInTheDocument()
    expect(document.title).toBe('(2) Live map — AmbuCare')
    expect(beep).toHaveBeenCalledTimes(1)

    // The same ones again: no sound. One ends: the count follows.
    answer = [noAmbulance, { ...unanswered, closedAt: ago(0) }]
    await client.invalidateQueries({ queryKey: adminKeys.alerts() })
    expect(await screen.findByRole('heading', { name: 'Alerts (1)' })).toBeInTheDocument()
    expect(document.title).toBe('(1) Live map — AmbuCare')
    expect(beep).toHaveBeenCalledTimes(1)
  })

  it('reads the pages of the list, cursor after cursor, and still the bare list of the release before', async () => {
    const { calls } = open({
      'GET /admin/alerts': (c) =>
        c.query.get('cursor') === 'next'
          ? json(200, { items: [{ ...noAmbulance, count: 4 }, notResponding, ended] })
          : json(200, { items: [unanswered], cursor: 'next' }),
    })
    expect(await screen.findByRole('heading', { name: 'Alerts (3)' })).toBeInTheDocument()
    const items = panel().getAllByRole('listitem')
    expect(items[0]).toHaveTextContent('No answer from the crew')
    expect(items[1]).toHaveTextContent('No free ambulance for an emergency')
    expect(items[1]).toHaveTextContent('4 calls')
    expect(items[2]).toHaveTextContent('Ambulance PB-31')
    expect(calls.filter((c) => c.path === '/admin/alerts').map((c) => c.query.get('cursor'))).toEqual([null, 'next'])
  })

  it('polls every 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { calls } = open({ 'GET /admin/alerts': () => json(200, []) })
    await screen.findByText('No open alerts')
    const polls = () => calls.filter((c) => c.path === '/admin/alerts').length
    expect(polls()).toBe(1)
    await vi.advanceTimersByTimeAsync(5000)
    await waitFor(() => expect(polls()).toBe(2))
  })

  it('acknowledges an alert: it leaves the list at once', async () => {
    const user = userEvent.setup()
    let acked = false
    const { calls } = open({
      'GET /admin/alerts': () => json(200, [acked ? { ...unanswered, acknowledgedAt: ago(0), acknowledgedBy: 'admin' } : unanswered]),
      'POST /admin/alerts/7/ack': () => {
        acked = true
        return json(200, { ...unanswered, acknowledgedAt: ago(0), acknowledgedBy: 'admin' })
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Acknowledge' }))
    expect(await screen.findByText('No open alerts')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/admin/alerts/7/ack'])
    expect(document.title).toBe('Live map — AmbuCare')
  })

  it('reassigns from a dialog of the nearest free ambulances to the pickup, with their distances', async () => {
    const user = userEvent.setup()
    const { calls } = open({
      'GET /admin/alerts': () => json(200, [unanswered]),
      'GET /admin/ambulances/free-near': () => json(200, free),
      'PATCH /admin/bookings/12/ambulance': () => json(200, { id: 12 }),
    })
    await user.click(await screen.findByRole('button', { name: 'Reassign' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Reassign booking #12' }))
    const choices = await dialog.findAllByRole('button', { name: /^Send/ })
    // Named by what they show (label in name): where, how soon, what kind, which crew.
    expect(choices.map((b) => b.textContent)).toEqual(['Send PB-40: 1.2 km away, About 3 minBasic life support Crew online', 'Send PB-41: 3.5 km away, About 8 minAdvanced life support No crew'])
    const near = calls.find((c) => c.path === '/admin/ambulances/free-near')!
    expect([near.query.get('lat'), near.query.get('lng')]).toEqual(['30.7', '74.35'])

    await user.click(choices[1]!)
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    const patch = calls.find((c) => c.method === 'PATCH')!
    expect(patch.path).toBe('/admin/bookings/12/ambulance')
    expect(patch.body).toEqual({ ambulanceId: 41 })
    expect(screen.getByText('Booking #12 is now with ambulance PB-41.')).toBeInTheDocument()
  })

  it('opens with focus on Close, kept there when the list arrives: a stray Enter sends no ambulance', async () => {
    const user = userEvent.setup()
    const { calls } = open({
      'GET /admin/alerts': () => json(200, [unanswered]),
      'GET /admin/ambulances/free-near': () => json(200, free),
    })
    await user.click(await screen.findByRole('button', { name: 'Reassign' }))
    const dialog = within(await screen.findByRole('dialog'))
    expect(await dialog.findAllByRole('button', { name: /^Send/ })).toHaveLength(2)
    expect(dialog.getByRole('button', { name: 'Close' })).toHaveFocus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0)
  })

  it("shows the server's 409 when the ambulance was taken meanwhile, and the dialog stays open", async () => {
    const user = userEvent.setup()
    open({
      'GET /admin/alerts': () => json(200, [unanswered]),
      'GET /admin/ambulances/free-near': () => json(200, free),
      'PATCH /admin/bookings/12/ambulance': () => json(409, { message: 'Ambulance PB-40 is no longer available' }),
    })
    await user.click(await screen.findByRole('button', { name: 'Reassign' }))
    const dialog = within(await screen.findByRole('dialog'))
    await user.click(await dialog.findByRole('button', { name: /^Send PB-40: 1.2 km away, About 3 min/ }))
    expect(await dialog.findByRole('alert')).toHaveTextContent('Ambulance PB-40 is no longer available')
    expect(dialog.getByRole('button', { name: /^Send PB-41: 3.5 km away, About 8 min/ })).toBeEnabled()
  })

  it('says when no ambulance is free near the pickup', async () => {
    const user = userEvent.setup()
    open({
      'GET /admin/alerts': () => json(200, [{ ...noAmbulance, bookingId: 15 }]),
      'GET /admin/ambulances/free-near': () => json(200, []),
    })
    await user.click(await screen.findByRole('button', { name: 'Reassign' }))
    expect(await screen.findByText('No free ambulance within the search radius.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('says "No open alerts" when there are none', async () => {
    open({ 'GET /admin/alerts': () => json(200, [ended]) })
    expect(await screen.findByText('No open alerts')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Alerts (0)' })).toBeInTheDocument()
    expect(document.title).toBe('Live map — AmbuCare')
  })

  it('says "Loading alerts..." and then "Failed to load alerts" with a retry', async () => {
    const user = userEvent.setup()
    let fail = true
    open({ 'GET /admin/alerts': () => (fail ? json(500, { message: 'boom' }) : json(200, [])) })
    expect(screen.getByText('Loading alerts...')).toBeInTheDocument()
    expect(await screen.findByText('Failed to load alerts')).toBeInTheDocument()
    fail = false
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('No open alerts')).toBeInTheDocument()
  })
})

// The dispatcher's console's queue (docs/decisions/0024-a-console-row-acts-alone.md).
describe('AlertsPanel: the console queue', () => {
  // One emergency's two alerts (its crew is offline, and nobody has accepted), with what the list adds to them.
  const listed = { requesterPhone: '+91 98140 00001', bookingType: 'EMERGENCY' as const, destinationName: 'Civil Hospital', ambulancePresence: 'OFFLINE' as const }
  const jobCall: Alert = { ...callStation, id: 20, bookingId: 12, ambulanceId: 31, ambulanceNumber: 'PB-31', pickup: { latitude: 30.7, longitude: 74.35, landmark: 'Gate 2' }, since: ago(90_000), ...listed }
  const jobUnanswered: Alert = { ...unanswered, since: ago(30_000), ...listed }
  const areas: Alert[] = [0, 1, 2].map((i) => ({ id: 30 + i, kind: 'NO_AMBULANCE', pickup: { latitude: 30 + i / 10, longitude: 74 }, count: i + 1, since: ago(60_000 * (i + 1)) }))

  it('groups the alerts of one booking into one row that says what, where, since when, which crew and whom to call', async () => {
    // The ambulance that let job 12 go (PB-30) is named in a row of its own.
    const missed: Alert = { ...notResponding, ambulanceId: 30, ambulanceNumber: 'PB-30', bookingId: 12 }
    open({ 'GET /admin/alerts': () => json(200, { items: [jobCall, jobUnanswered, missed] }) })
    expect(await screen.findByRole('heading', { name: 'Alerts (3)' })).toBeInTheDocument()
    const rows = panel().getAllByRole('listitem')
    expect(rows).toHaveLength(2)
    expect(rows[1]).toHaveTextContent('Ambulance not responding')
    expect(rows[1]).toHaveTextContent('Ambulance PB-30')
    const job = within(rows[0]!)
    expect(rows[0]).toHaveTextContent('Crew not online: phone the station · No answer from the crew')
    // The oldest of the two: 1 min 30 s.
    expect(rows[0]).toHaveTextContent(/Open 1:3\d/)
    expect(job.getByRole('link', { name: 'Booking #12' })).toHaveAttribute('href', '/bookings/12')
    expect(job.getByText('Emergency')).toBeInTheDocument()
    expect(job.getByText('Crew offline')).toBeInTheDocument()
    for (const where of ['30.7000, 74.3500', '· Gate 2', '· Hospital: Civil Hospital']) expect(rows[0]).toHaveTextContent(where)
    expect(job.getByRole('link', { name: /^Call requester/ })).toHaveAttribute('href', 'tel:+919814000001')
    expect(job.getByRole('link', { name: 'Phone station +91 100 200' })).toHaveAttribute('href', 'tel:+91100200')
    expect(job.getAllByRole('button', { name: 'Reassign' })).toHaveLength(1)
    // No booking, nobody to call, nothing to reassign.
    const ambulance = within(rows[1]!)
    expect(ambulance.queryByRole('link', { name: /^Call requester/ })).not.toBeInTheDocument()
    expect(ambulance.queryByRole('button', { name: 'Reassign' })).not.toBeInTheDocument()
    expect(rows[1]).toHaveTextContent('Place not known')
  })

  it("an area's refused emergencies: the hospital nearest, with its phone", async () => {
    open({ 'GET /admin/alerts': () => json(200, { items: [{ ...noAmbulance, count: 3, hospitalId: 4, hospitalName: 'Civil Hospital', phone: '+91 161 000' }] }) })
    const row = await screen.findByRole('listitem')
    expect(row).toHaveTextContent('3 calls')
    expect(row).toHaveTextContent('· Nearest hospital: Civil Hospital')
    expect(within(row).getByRole('link', { name: 'Phone hospital +91 161 000' })).toHaveAttribute('href', 'tel:+91161000')
    expect(within(row).queryByRole('link', { name: /^Call requester/ })).not.toBeInTheDocument()
  })

  it('ticks the time each second', async () => {
    fakeClock()
    open({ 'GET /admin/alerts': () => json(200, { items: [{ ...noAmbulance, since: new Date(Date.now() - 20_000).toISOString() }] }) })
    const row = await screen.findByRole('listitem')
    expect(row).toHaveTextContent(/Open 0:2[01]/)
    await elapse(3000)
    expect(row).toHaveTextContent(/Open 0:2[34]/)
  })

  it('acknowledging a row acknowledges each of its alerts', async () => {
    const user = userEvent.setup()
    const acked = new Set<number>()
    const { calls } = open({
      'GET /admin/alerts': () => json(200, { items: [jobCall, jobUnanswered].map((a) => (acked.has(a.id) ? { ...a, acknowledgedAt: ago(0) } : a)) }),
      'POST /admin/alerts/20/ack': () => (acked.add(20), json(200, { ...jobCall, acknowledgedAt: ago(0) })),
      'POST /admin/alerts/7/ack': () => (acked.add(7), json(200, { ...jobUnanswered, acknowledgedAt: ago(0) })),
    })
    await user.click(await screen.findByRole('button', { name: 'Acknowledge' }))
    expect(await screen.findByText('No open alerts')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path).sort()).toEqual(['/admin/alerts/20/ack', '/admin/alerts/7/ack'])
  })

  it('moves with the arrow keys (each row shown on the map), opens with Enter, reassigns with R, acknowledges with A', async () => {
    const user = userEvent.setup()
    const chosen: string[] = []
    const { calls } = open(
      {
        'GET /admin/alerts': () => json(200, { items: [jobCall, jobUnanswered, ...areas] }),
        'GET /admin/ambulances/free-near': () => json(200, free),
        'POST /admin/alerts/31/ack': () => json(200, { ...areas[1], acknowledgedAt: ago(0) }),
      },
      (row) => chosen.push(row.key),
    )
    await screen.findByRole('heading', { name: 'Alerts (5)' })
    const rows = () => panel().getAllByRole('listitem')
    // One stop in the Tab order: the first row.
    expect(rows().map((r) => r.tabIndex)).toEqual([0, -1, -1, -1])
    rows()[0]!.focus()
    await user.keyboard('{ArrowDown}{ArrowDown}')
    expect(rows()[2]).toHaveFocus()
    await user.keyboard('{ArrowUp}')
    expect(rows()[1]).toHaveFocus()
    expect(chosen).toEqual(['a30', 'a31', 'a30'])
    // The Tab stop follows: Tab back into the queue lands on the row left.
    expect(rows().map((r) => r.tabIndex)).toEqual([-1, 0, -1, -1])

    // R on the booking's row: the reassign dialog, searching around its pickup.
    await user.keyboard('{ArrowUp}')
    expect(rows()[0]).toHaveFocus()
    await user.keyboard('r')
    const dialog = within(await screen.findByRole('dialog', { name: 'Reassign booking #12' }))
    expect(await dialog.findAllByRole('button', { name: /^Send/ })).toHaveLength(2)
    await user.click(dialog.getByRole('button', { name: 'Close' }))

    // A on an area's row: that alert only; the focus goes on to the row taking its place.
    rows()[2]!.focus()
    await user.keyboard('a')
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/admin/alerts/31/ack']))

    // Enter opens the booking.
    rows()[0]!.focus()
    await user.keyboard('{Enter}')
    expect(await screen.findByText('booking page')).toBeInTheDocument()
  })

  it('acknowledges every alert of a kind after a confirmation naming how many', async () => {
    const user = userEvent.setup()
    const acked = new Set<number>()
    const routes: Record<string, (call: FetchCall) => Response> = {
      'GET /admin/alerts': () => json(200, { items: [jobCall, ...areas].map((a) => (acked.has(a.id) ? { ...a, acknowledgedAt: ago(0) } : a)) }),
    }
    for (const a of areas) routes[`POST /admin/alerts/${a.id}/ack`] = () => (acked.add(a.id), json(200, { ...a, acknowledgedAt: ago(0) }))
    const { calls } = open(routes)
    // Only kinds with more than one open alert get the button.
    const group = await screen.findByRole('group', { name: 'Acknowledge all of a kind' })
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['Acknowledge all 3: No free ambulance for an emergency'])
    await user.click(within(group).getByRole('button'))
    const dialog = within(await screen.findByRole('dialog', { name: 'Acknowledge 3 alerts?' }))
    // Focus on Cancel: a stray Enter acknowledges nothing.
    expect(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.click(dialog.getByRole('button', { name: 'Acknowledge 3' }))
    expect(await screen.findByText('3 alerts acknowledged.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path).sort()).toEqual(['/admin/alerts/30/ack', '/admin/alerts/31/ack', '/admin/alerts/32/ack'])
    await waitFor(() => expect(panel().getAllByRole('listitem')).toHaveLength(1))
    expect(screen.queryByRole('group', { name: 'Acknowledge all of a kind' })).not.toBeInTheDocument()
  })

  it('says how many could not be acknowledged, and keeps the dialog open', async () => {
    const user = userEvent.setup()
    open({
      'GET /admin/alerts': () => json(200, { items: areas }),
      'POST /admin/alerts/30/ack': () => json(200, { ...areas[0], acknowledgedAt: ago(0) }),
      'POST /admin/alerts/31/ack': () => json(500, { message: 'boom' }),
      'POST /admin/alerts/32/ack': () => json(500, { message: 'boom' }),
    })
    await user.click(await screen.findByRole('button', { name: /^Acknowledge all 3/ }))
    const dialog = within(await screen.findByRole('dialog'))
    await user.click(dialog.getByRole('button', { name: 'Acknowledge 3' }))
    expect(await dialog.findByText('2 could not be acknowledged: try again.')).toBeInTheDocument()
  })
})
