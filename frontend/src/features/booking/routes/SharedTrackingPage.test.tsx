import { onlineManager } from '@tanstack/react-query'
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { demoUser, hospital, sharedTrip as shared } from '@/test/fixtures'
import { elapse, fakeClock } from '@/test/clock'
import { json, LAZY_MAP, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { TRACK_POLL_MS } from '../api/track'
import SharedTrackingPage from './SharedTrackingPage'

afterEach(() => {
  vi.unstubAllGlobals()
  onlineManager.setOnline(true)
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
    const title = await screen.findByRole('heading', { name: 'Ambulance on its way' })
    expect(title.nextElementSibling).toHaveTextContent(/^On the way to the pickup · Ambulance PB-31 \(Advanced life support\)$/)
    const eta = within(screen.getByRole('region', { name: 'Arriving at the pickup in' }))
    expect(eta.getByText('About 7 min')).toBeInTheDocument()
    const destination = within(screen.getByRole('region', { name: 'Destination hospital' }))
    expect(destination.getByText('City Hospital')).toBeInTheDocument()
    expect(destination.getByText('3 Main Road')).toBeInTheDocument()
    const map = await screen.findByRole('region', { name: 'Map of the ambulance and the destination hospital' }, LAZY_MAP)
    expect(within(map).queryByText('Pickup')).not.toBeInTheDocument()
    expect(calls[0]!.headers.Authorization).toBeUndefined()
  })

  it('the crew drives elsewhere: the new destination, without the ambulance’s hospital’s address or marker', async () => {
    open({ 'GET /booking/shared/tok-1': () => json(200, shared({ tripStage: 'TO_HOSPITAL', destinationHospitalName: 'Civil Hospital' })) })
    const destination = within(await screen.findByRole('region', { name: 'Destination hospital' }))
    expect(destination.getByText('Civil Hospital')).toBeInTheDocument()
    expect(destination.queryByText('3 Main Road')).not.toBeInTheDocument()
    const map = await screen.findByRole('region', { name: 'Map of the ambulance and the destination hospital' }, LAZY_MAP)
    expect(map.querySelector('.leaflet-marker-icon[title="City Hospital"]')).toBeNull()
  })

  it('follows the trip: a new stage shows without reload', async () => {
    fakeClock()
    let answer = shared()
    open({ 'GET /booking/shared/tok-1': () => json(200, answer) })
    expect(await screen.findByText('About 7 min')).toBeInTheDocument()
    answer = shared({ tripStage: 'AT_PICKUP', etaMinutes: null })
    await elapse(TRACK_POLL_MS)
    expect(await screen.findByText('The ambulance is at the pickup.')).toBeInTheDocument()
  })

  // Once the booking is final the link shows how the trip ended, and no ambulance.
  it.each([
    ['COMPLETED', 'AT_HOSPITAL', 'Trip completed', 'This trip is completed.'],
    ['CANCELLED', 'EN_ROUTE', 'Booking cancelled', 'This booking was cancelled.'],
  ] as const)('a %s trip: the final stage only, no marker, ETA or position', async (status, stage, title, heading) => {
    fakeClock()
    const ended = shared({ bookingStatus: status, tripStage: stage, etaMinutes: null, ambulance: { ...shared().ambulance, position: null } })
    open({ 'GET /booking/shared/tok-1': () => json(200, ended) })
    const h1 = await screen.findByRole('heading', { level: 1, name: title })
    expect(h1.nextElementSibling).toHaveTextContent(/^Ambulance PB-31 \(Advanced life support\)$/)
    expect(screen.queryByRole('heading', { name: 'Ambulance on its way' })).not.toBeInTheDocument()
    const card = within(screen.getByRole('region', { name: heading }))
    expect(card.getByText('The ambulance is no longer shown on the map.')).toBeInTheDocument()
    for (const text of [/ETA/, /^Live/, /Last known/, /No position reported/, /at its hospital/]) {
      expect(screen.queryByText(text)).not.toBeInTheDocument()
    }
    expect(within(screen.getByRole('region', { name: 'Destination hospital' })).getByText('City Hospital')).toBeInTheDocument()
    const map = await screen.findByRole('region', { name: 'Map of the destination hospital' }, LAZY_MAP)
    expect(within(map).queryByText(/^Ambulance/)).not.toBeInTheDocument()
    expect(map.querySelectorAll('.leaflet-marker-icon')).toHaveLength(1)
    expect(map.querySelector('[title^="Ambulance"]')).toBeNull()
    await elapse(60_000)
    expect(screen.queryByText(/last updated/i)).not.toBeInTheDocument()
  })

  it('one message for a link unknown, expired or stopped, without a retry', async () => {
    open({ 'GET /booking/shared/tok-1': () => json(404, { message: 'Not found' }) })
    expect(await screen.findByRole('heading', { name: 'This tracking link does not work' })).toBeInTheDocument()
    expect(screen.getByText('It is unknown, has expired, or sharing was stopped. Ask the person who sent it for a new one.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()
  })

  it('a link stopped while the page is open says so at the next update', async () => {
    fakeClock()
    let stopped = false
    open({ 'GET /booking/shared/tok-1': () => (stopped ? json(404, { message: 'Not found' }) : json(200, shared())) })
    expect(await screen.findByText('About 7 min')).toBeInTheDocument()
    stopped = true
    await elapse(TRACK_POLL_MS)
    expect(await screen.findByRole('heading', { name: 'This tracking link does not work' })).toBeInTheDocument()
    expect(screen.queryByText('About 7 min')).not.toBeInTheDocument()
  })

  it('offline: the last state stays, with its age', async () => {
    open({ 'GET /booking/shared/tok-1': () => json(200, shared()) })
    expect(await screen.findByText('About 7 min')).toBeInTheDocument()
    act(() => onlineManager.setOnline(false))
    expect(await screen.findByText(/^Offline, last updated \d+ s ago/)).toBeInTheDocument()
    expect(screen.getByText('About 7 min')).toBeInTheDocument()
  })

  it('other failures can be retried', async () => {
    let fail = true
    open({ 'GET /booking/shared/tok-1': () => (fail ? json(503, { message: 'down' }) : json(200, shared())) })
    expect(await screen.findByText('Failed to load the trip')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('About 7 min')).toBeInTheDocument()
  })

  it('after a move: says no answer came and where the job went, never undefined', async () => {
    const timeline = [
      { stage: 'PENDING' as const, at: '2026-03-01T09:30:00Z' },
      { stage: 'REASSIGNED' as const, at: '2026-03-01T09:31:00Z', fromAmbulance: 'AMB-01', reason: 'NO_ANSWER' as const },
    ]
    open({ 'GET /booking/shared/tok-1': () => json(200, shared({ bookingStatus: 'ACTIVE', tripStage: 'DISPATCHED', timeline, ambulance: { ...shared().ambulance, number: 'AMB-07' } })) })
    expect(await screen.findByText('No answer from the first ambulance: sent to AMB-07')).toBeInTheDocument()
    expect(screen.queryByText(/Still looking/)).not.toBeInTheDocument()
    expect(document.body.textContent).not.toMatch(/undefined|NaN/)
  })

  it('still looking: the emergency number, and hospitals near the destination with their phones', async () => {
    const nearest = [{ ...hospital(3, 'City Hospital', 0), contactInfo: '+91 100 200' }, { ...hospital(4, 'Rural Clinic', 3.4), contactInfo: '+91 100 400' }]
    const { calls } = open({
      'GET /booking/shared/tok-1': () => json(200, shared({ tripStage: 'DISPATCHED', stillLooking: true, answerBy: '2026-03-01T09:31:00Z' })),
      'GET /hospitals/nearest': () => json(200, nearest),
    })
    const box = within((await screen.findByRole('heading', { name: 'Still looking for an ambulance: call 911' })).closest('section')!)
    expect(box.getByText(/a dispatcher has been told. If you can, call now, or call a hospital:/)).toBeInTheDocument()
    expect(box.getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911')
    expect(await box.findByRole('link', { name: /^Call \+91 100 400\s*, Rural Clinic$/ })).toHaveAttribute('href', 'tel:+91100400')
    expect(box.getByText('(the destination)')).toBeInTheDocument()
    // The link knows no pickup: the search is around the destination, and no distance is shown from it.
    const near = calls.find((c) => c.path === '/hospitals/nearest')!
    expect([near.query.get('lat'), near.query.get('lng')]).toEqual(['30.63', '74.3'])
    expect(box.queryByText(/km/)).not.toBeInTheDocument()
  })

  it('still looking, nothing found: the destination alone, without a phone the link does not carry', async () => {
    open({
      'GET /booking/shared/tok-1': () => json(200, shared({ tripStage: 'DISPATCHED', stillLooking: true })),
      'GET /hospitals/nearest': () => json(500, { message: 'boom' }),
    })
    const box = within((await screen.findByRole('heading', { name: /^Still looking/ })).closest('section')!)
    expect(box.getByText('City Hospital')).toBeInTheDocument()
    expect(box.getByText('No phone number on record.')).toBeInTheDocument()
  })
})
