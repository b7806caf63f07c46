import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api'
import { saveSession } from '@/lib/session'
import { adminUser, ago, demoUser, hospital, tracking as trip } from '@/test/fixtures'
import { elapse, fakeClock } from '@/test/clock'
import { stubNavigator } from '@/test/geolocation'
import { fakePush, SERVER_KEY } from '@/test/push'
import { json, LAZY_MAP, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { TRACK_POLL_MS, trackPollInterval } from '../api/track'
import TrackBookingPage from './TrackBookingPage'

afterEach(() => {
  vi.unstubAllGlobals()
  sessionStorage.clear()
  onlineManager.setOnline(true)
})

/** The patient details form's four fields (gender Female). */
async function fillDetails(form: ReturnType<typeof within>, details: { name: string; age: string; condition: string }) {
  await userEvent.type(form.getByLabelText('Patient Name'), details.name)
  await userEvent.type(form.getByLabelText('Age'), details.age)
  await userEvent.selectOptions(form.getByLabelText('Gender'), 'Female')
  await userEvent.type(form.getByLabelText('Medical Condition'), details.condition)
}

function open(routes: Record<string, (call: FetchCall) => Response | Promise<Response>>, user = demoUser, state?: unknown) {
  saveSession({ token: 't', user, role: user.role, id: user.id })
  const stub = routeFetch(routes)
  renderRoutes([{ path: '/bookings/:id', element: <TrackBookingPage /> }], state ? { pathname: '/bookings/12', state } : '/bookings/12')
  return stub
}

describe('TrackBookingPage', () => {
  it('shows the map, the ETA and distance, a live position, the timeline, calls and cancel', async () => {
    const { calls } = open({ 'GET /booking/12/track': () => json(200, trip()) })
    expect(await screen.findByRole('heading', { name: 'Booking #12' })).toBeInTheDocument()
    expect(calls[0]!.path).toBe('/booking/12/track')
    const eta = within(screen.getByRole('region', { name: 'Arriving at the pickup in' }))
    expect(eta.getByText('About 7 min')).toBeInTheDocument()
    expect(eta.getByText('2.4 km away')).toBeInTheDocument()
    expect(eta.getByText(/^Live · updated \d+ s ago$/)).toBeInTheDocument()
    const steps = within(screen.getByRole('region', { name: 'Trip timeline' })).getAllByRole('listitem')
    expect(steps.map((s) => s.textContent)).toEqual([
      expect.stringMatching(/^Requested/),
      expect.stringMatching(/^On the way to the pickupNow/),
      'At the pickup',
      'On the way to the hospital',
      'At the hospital',
      'Handed over',
      'Completed',
    ])
    expect(steps[1]).toHaveAttribute('aria-current', 'step')
    expect(screen.getByRole('link', { name: /^Call the ambulance/ })).toHaveAttribute('href', 'tel:+919814000031')
    expect(screen.getByRole('link', { name: /^Call the hospital/ })).toHaveAttribute('href', 'tel:+91100200')
    expect(screen.getByRole('button', { name: 'Cancel booking' })).toBeInTheDocument()
    expect(await screen.findByRole('region', { name: 'Map of the ambulance, the pickup and the hospital' }, LAZY_MAP)).toBeInTheDocument()
  })

  it('names the destination hospital; once it is another than the ambulance’s, that one’s phone is not offered as the hospital’s', async () => {
    open({ 'GET /booking/12/track': () => json(200, trip({ tripStage: 'TO_HOSPITAL', destinationHospitalName: 'Civil Hospital' })) })
    const title = await screen.findByRole('heading', { name: 'Booking #12' })
    expect(title.nextElementSibling).toHaveTextContent(/^On the way to the hospital · Civil Hospital$/)
    expect(screen.queryByRole('link', { name: /^Call the hospital/ })).not.toBeInTheDocument()
  })

  it('after the handover: says so, and the timeline has the step', async () => {
    const at = (m: number) => `2026-03-01T10:${String(m).padStart(2, '0')}:00Z`
    open({
      'GET /booking/12/track': () =>
        json(200, trip({
          tripStage: 'HANDED_OVER',
          moves: [],
          timeline: [
            { stage: 'PENDING', at: at(0) }, { stage: 'ACTIVE', at: at(1) }, { stage: 'EN_ROUTE', at: at(1) }, { stage: 'AT_PICKUP', at: at(5) },
            { stage: 'TO_HOSPITAL', at: at(9) }, { stage: 'AT_HOSPITAL', at: at(20) }, { stage: 'HANDED_OVER', at: at(31) },
          ],
        })),
    })
    expect(await screen.findByText('The patient has been handed over to the hospital.')).toBeInTheDocument()
    const steps = within(screen.getByRole('region', { name: 'Trip timeline' })).getAllByRole('listitem')
    expect(steps.map((s) => s.textContent?.replace(/\d{2}:\d{2}.*$/, ''))).toEqual(
      expect.arrayContaining(['At the hospital', 'Handed overNow']),
    )
  })

  it('updates itself: a new position and ETA show without reload', async () => {
    fakeClock()
    let answer = trip()
    open({ 'GET /booking/12/track': () => json(200, answer) })
    expect(await screen.findByText('About 7 min')).toBeInTheDocument()
    answer = trip({ etaMinutes: 3, distanceKm: 1.1 })
    await elapse(TRACK_POLL_MS)
    expect(await screen.findByText('About 3 min')).toBeInTheDocument()
    expect(screen.getByText('1.1 km away')).toBeInTheDocument()
  })

  it('shows a stale position as stale with its age, never as live, and no ETA', async () => {
    const position = { latitude: 30.68, longitude: 74.32, at: ago(4 * 60_000), stale: true, source: 'GPS' as const }
    open({ 'GET /booking/12/track': () => json(200, trip({ etaMinutes: null, distanceKm: null, ambulance: { ...trip().ambulance, position } })) })
    expect(await screen.findByText('Last known position, 4 min old: the ambulance may have moved since')).toBeInTheDocument()
    expect(screen.getByText("No ETA: the ambulance's position is out of date.")).toBeInTheDocument()
    expect(screen.queryByText(/^Live/)).not.toBeInTheDocument()
  })

  it('says the hospital stands in for a position never reported', async () => {
    open({
      'GET /booking/12/track': () =>
        json(
          200,
          trip({
            bookingStatus: 'PENDING',
            tripStage: null,
            accepted: false,
            answerBy: new Date(Date.now() + 250_000).toISOString(),
            etaMinutes: null,
            distanceKm: null,
            ambulance: { ...trip().ambulance, position: null },
          }),
        ),
    })
    expect(await screen.findByText("No position reported yet: the hospital's location is shown instead")).toBeInTheDocument()
    expect(screen.getByText('No ETA yet: the ambulance has not shared its position.')).toBeInTheDocument()
    expect(screen.getByText(/^Waiting for the crew to accept \(2\d\d s left\)$/)).toBeInTheDocument()
  })

  // The server sends no position, ETA or phone of the ambulance once the booking is final.
  it.each([
    ['COMPLETED', 'AT_HOSPITAL', 'This trip is completed.'],
    ['CANCELLED', 'EN_ROUTE', 'This booking was cancelled.'],
  ] as const)('a %s booking shows how the trip ended and no ambulance: no marker, ETA or position', async (status, stage, heading) => {
    fakeClock()
    const ended = trip({
      bookingStatus: status,
      tripStage: stage,
      timeline: [...trip().timeline, { stage: status, at: '2026-03-01T10:05:00Z' }],
      ambulance: { ...trip().ambulance, contactInfo: null, position: null },
      etaMinutes: null,
      distanceKm: null,
      moves: [],
    })
    open({ 'GET /booking/12/track': () => json(200, ended) })
    const card = within(await screen.findByRole('region', { name: heading }))
    expect(card.getByText('The ambulance is no longer shown on the map.')).toBeInTheDocument()
    // No ETA, and nothing saying where the ambulance is or was.
    for (const text of [/ETA/, /^Live/, /Last known/, /No position reported/, /at its hospital/, /Updates every few seconds/]) {
      expect(screen.queryByText(text)).not.toBeInTheDocument()
    }
    expect(screen.queryByRole('link', { name: /^Call the ambulance/ })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: /^Call the hospital/ })).toBeInTheDocument()
    // The map: the pickup and the hospital, no ambulance marker and no ambulance in its legend.
    const map = await screen.findByRole('region', { name: 'Map of the pickup and the hospital' }, LAZY_MAP)
    expect(within(map).getByText('Pickup')).toBeInTheDocument()
    expect(within(map).getByText('Hospital')).toBeInTheDocument()
    expect(within(map).queryByText(/^Ambulance/)).not.toBeInTheDocument()
    expect(map.querySelectorAll('.leaflet-marker-icon')).toHaveLength(2)
    expect(map.querySelector('[title^="Ambulance"]')).toBeNull()
    // The timeline ends with how it ended.
    const steps = within(screen.getByRole('region', { name: 'Trip timeline' })).getAllByRole('listitem')
    expect(steps.at(-1)).toHaveAttribute('aria-current', 'step')
    expect(steps.at(-1)!.textContent).toMatch(status === 'COMPLETED' ? /^Completed/ : /^Cancelled/)
    // Nothing will change: no "last updated" note once the polling has stopped.
    await elapse(60_000)
    expect(screen.queryByText(/last updated/i)).not.toBeInTheDocument()
  })

  it('cancels after a confirmation while allowed', async () => {
    let answer = trip({ bookingStatus: 'PENDING', tripStage: null })
    const { calls } = open({
      'GET /booking/12/track': () => json(200, answer),
      'PATCH /booking/cancel': () => {
        answer = trip({ bookingStatus: 'CANCELLED', timeline: [...trip().timeline, { stage: 'CANCELLED', at: '2026-03-01T09:40:00Z' }], moves: [] })
        return json(200, {})
      },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel booking' }))
    const dialog = screen.getByRole('dialog', { name: 'Cancel booking' })
    expect(within(dialog).getByText('Cancel the booking of ambulance PB-31?')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking' }))
    expect(await screen.findByText('Booking cancelled.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')!.query.get('bookingId')).toBe('12')
    expect(await screen.findByText('This booking was cancelled.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument()
  })

  it('offers no cancel once the server lists none (the ambulance is at the pickup)', async () => {
    open({ 'GET /booking/12/track': () => json(200, trip({ tripStage: 'AT_PICKUP', etaMinutes: null, distanceKm: null, moves: [] })) })
    expect(await screen.findByText('The ambulance is at the pickup.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument()
    expect(screen.getByText(/call the crew/)).toBeInTheDocument()
  })

  it("offers Cancel exactly when the server's moves list CANCELLED, whatever the stage", async () => {
    // An admin may cancel at any stage: the server says so, the page does not guess.
    open({ 'GET /booking/12/track': () => json(200, trip({ tripStage: 'AT_PICKUP', etaMinutes: null, distanceKm: null, moves: ['CANCELLED'] })) }, adminUser)
    expect(await screen.findByRole('button', { name: 'Cancel booking' })).toBeInTheDocument()
    cleanup()
    open({ 'GET /booking/12/track': () => json(200, trip({ tripStage: 'EN_ROUTE', moves: [] })) })
    expect(await screen.findByText(/call the crew/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument()
  })

  it.each([
    [403, 'This booking is not yours to follow.'],
    [404, 'There is no such booking.'],
  ])('says so on a %i, without a retry', async (status, message) => {
    open({ 'GET /booking/12/track': () => json(status, { message: 'no' }) })
    expect(await screen.findByText(message)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: '← Back to booking history' })).toHaveAttribute('href', '/history')
  })

  it('just dispatched: says so, and takes the patient’s details for the crew', async () => {
    const { calls } = open(
      {
        'GET /booking/12/track': () => json(200, trip({ tripStage: 'DISPATCHED', accepted: false, answerBy: new Date(Date.now() + 42_500).toISOString() })),
        'PATCH /booking/12/patient': () => json(200, {}),
      },
      demoUser,
      { dispatched: true },
    )
    // Nobody has accepted yet: never "on its way" (decision 0020).
    expect(await screen.findByText('Request sent: an ambulance is assigned to you.')).toBeInTheDocument()
    expect(screen.getByTestId('accept-wait')).toHaveTextContent(/^Waiting for the crew to accept \(4[23] s left\)$/)
    expect(screen.getByText('Once the crew accepts, at the pickup in')).toBeInTheDocument()
    expect(screen.queryByText(/on its way/)).not.toBeInTheDocument()
    const form = within(screen.getByRole('region', { name: /^Patient details/ }))
    expect(form.getByText(/^An ambulance is assigned and its crew has yet to accept/)).toBeInTheDocument()
    await userEvent.click(form.getByRole('button', { name: 'Send to the crew' }))
    expect(form.getByText('Please fill in all required fields.')).toBeInTheDocument()
    expect(form.getByLabelText('Patient Name')).toHaveFocus()
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0)
    await fillDetails(form, { name: ' Asha ', age: '64', condition: 'Not breathing well' })
    await userEvent.click(form.getByRole('button', { name: 'Send to the crew' }))
    expect(await form.findByText('Patient details sent to the crew.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ name: 'Asha', age: 64, gender: 'Female', condition: 'Not breathing well' })
  })

  it('says "on its way" once the crew has accepted, and only then', async () => {
    open({ 'GET /booking/12/track': () => json(200, trip({ tripStage: 'EN_ROUTE', accepted: true })) })
    expect(await screen.findByText('The crew accepted: the ambulance is on its way.')).toBeInTheDocument()
    expect(screen.getByText('Arriving at the pickup in')).toBeInTheDocument()
    expect(screen.queryByTestId('accept-wait')).not.toBeInTheDocument()
    const form = within(screen.getByRole('region', { name: /^Patient details/ }))
    expect(form.getByText(/^The ambulance is already on its way/)).toBeInTheDocument()
  })

  it('marks the field a refused patient detail names', async () => {
    open({
      'GET /booking/12/track': () => json(200, trip()),
      'PATCH /booking/12/patient': () => json(400, { message: 'patient.age: must be at most 150', field: 'patient.age' }),
    })
    const form = within(await screen.findByRole('region', { name: /^Patient details/ }))
    await fillDetails(form, { name: 'Asha', age: '99', condition: 'Chest pain' })
    await userEvent.click(form.getByRole('button', { name: 'Send to the crew' }))
    expect(await form.findByText('patient.age: must be at most 150')).toBeInTheDocument()
    expect(form.getByLabelText('Age')).toHaveAttribute('aria-invalid', 'true')
  })

  it('stops saying "on its way to the pickup" once the ambulance is there', async () => {
    open({ 'GET /booking/12/track': () => json(200, trip({ tripStage: 'AT_PICKUP', etaMinutes: null, distanceKm: null })) }, demoUser, { dispatched: true })
    expect(await screen.findByText('The ambulance is at the pickup.')).toBeInTheDocument()
    expect(screen.queryByText(/Ambulance dispatched/)).not.toBeInTheDocument()
  })

  it('asks for patient details only on its requester’s open emergency', async () => {
    open({ 'GET /booking/12/track': () => json(200, trip({ bookingType: 'NORMAL' })) })
    expect(await screen.findByRole('heading', { name: 'Booking #12' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: /^Patient details/ })).not.toBeInTheDocument()
    expect(screen.queryByText(/Ambulance dispatched/)).not.toBeInTheDocument()
  })

  it('shares tracking through the phone’s share sheet, shows the link, and stops every link', async () => {
    const share = vi.fn(async () => undefined)
    stubNavigator({ share })
    const { calls } = open({
      'GET /booking/12/track': () => json(200, trip()),
      'POST /booking/12/share': () => json(201, { token: 'tok-1', url: '/t/tok-1', expiresAt: '2099-03-01T12:00:00Z' }),
      'DELETE /booking/12/share': () => json(204),
    })
    const card = within(await screen.findByRole('region', { name: 'Share tracking' }))
    expect(card.getByText(/Nothing about the patient, the pickup or you/)).toBeInTheDocument()
    await userEvent.click(card.getByRole('button', { name: 'Share tracking' }))
    expect(await card.findByText('Link shared.')).toBeInTheDocument()
    expect(share).toHaveBeenCalledWith({ title: 'Follow ambulance PB-31', text: 'Follow the ambulance on its way:', url: 'http://localhost:3000/t/tok-1' })
    expect(card.getByLabelText('Tracking link')).toHaveValue('http://localhost:3000/t/tok-1')
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1)
    await userEvent.click(card.getByRole('button', { name: 'Stop sharing' }))
    expect(await card.findByText('Sharing stopped: every link to this trip no longer works.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/booking/12/share'])
    expect(card.queryByLabelText('Tracking link')).not.toBeInTheDocument()
    expect(card.getByRole('button', { name: 'Share tracking' })).toBeInTheDocument()
  })

  it('copies the link where there is no share sheet, and keeps it across a reload', async () => {
    const writeText = vi.fn(async () => undefined)
    stubNavigator({ share: undefined, clipboard: { writeText } })
    open({
      'GET /booking/12/track': () => json(200, trip()),
      'POST /booking/12/share': () => json(201, { token: 'tok-2', url: '/t/tok-2', expiresAt: '2099-03-01T12:00:00Z' }),
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Share tracking' }))
    expect(await screen.findByText('Link copied.')).toBeInTheDocument()
    expect(writeText).toHaveBeenCalledWith('http://localhost:3000/t/tok-2')
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument()
    cleanup()
    open({ 'GET /booking/12/track': () => json(200, trip()) })
    expect(await screen.findByLabelText('Tracking link')).toHaveValue('http://localhost:3000/t/tok-2')
  })

  it('says why a link could not be made', async () => {
    open({
      'GET /booking/12/track': () => json(200, trip()),
      'POST /booking/12/share': () => json(409, { message: 'This booking is not open' }),
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Share tracking' }))
    expect(await screen.findByText('This booking is not open')).toBeInTheDocument()
  })

  it('offline: keeps the last state on screen with its age, and updates again when back online', async () => {
    let answer = trip()
    open({ 'GET /booking/12/track': () => json(200, answer) })
    expect(await screen.findByText('About 7 min')).toBeInTheDocument()
    act(() => onlineManager.setOnline(false))
    expect(await screen.findByText(/^Offline, last updated \d+ s ago\./)).toBeInTheDocument()
    expect(screen.getByText('About 7 min')).toBeInTheDocument()
    answer = trip({ etaMinutes: 2 })
    act(() => onlineManager.setOnline(true))
    expect(await screen.findByText('About 2 min')).toBeInTheDocument()
    expect(screen.queryByText(/^Offline, last updated/)).not.toBeInTheDocument()
  })

  it('a refresh that fails keeps the last answer, saying how old it is', async () => {
    fakeClock()
    let up = true
    open({ 'GET /booking/12/track': () => (up ? json(200, trip()) : Promise.reject(new TypeError('Failed to fetch'))) })
    expect(await screen.findByText('About 7 min')).toBeInTheDocument()
    up = false
    await elapse(TRACK_POLL_MS)
    expect(await screen.findByText(/^Could not update: last updated \d+ s ago/)).toBeInTheDocument()
    expect(screen.getByText('About 7 min')).toBeInTheDocument()
    expect(screen.queryByText('Failed to load the booking')).not.toBeInTheDocument()
  })

  it('offline before the first answer: says it waits for the connection', async () => {
    onlineManager.setOnline(false)
    open({ 'GET /booking/12/track': () => json(200, trip()) })
    expect(await screen.findByText('You are offline, and this page has not been loaded yet. It loads by itself when the connection is back.')).toBeInTheDocument()
    act(() => onlineManager.setOnline(true))
    expect(await screen.findByText('About 7 min')).toBeInTheDocument()
  })

  it('links an admin back to all bookings', async () => {
    open({ 'GET /booking/12/track': () => json(200, trip()) }, adminUser)
    expect(await screen.findByRole('link', { name: '← Back to all bookings' })).toHaveAttribute('href', '/admin/bookings')
    // The patient's details and the family's link are the requester's to give.
    expect(screen.queryByRole('region', { name: /^Patient details/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Share tracking' })).not.toBeInTheDocument()
  })
})

/** Waiting on the crew of AMB-07 since the job left AMB-01, which did not answer. */
const afterAMove = (overrides: Parameters<typeof trip>[0] = {}) =>
  trip({
    bookingStatus: 'ACTIVE',
    tripStage: 'DISPATCHED',
    timeline: [
      // The fixture's request and acceptance (09:31); sent to AMB-01 then, moved a minute later.
      ...trip().timeline.slice(0, 2),
      { stage: 'DISPATCHED', at: '2026-03-01T09:31:00Z' },
      { stage: 'REASSIGNED', at: '2026-03-01T09:32:00Z', fromAmbulance: 'AMB-01', reason: 'NO_ANSWER' },
    ],
    ambulance: { ...trip().ambulance, number: 'AMB-07' },
    answerBy: new Date(Date.now() + 50_000).toISOString(),
    ...overrides,
  })

describe('TrackBookingPage: the answer deadline', () => {
  it('after a move: says no answer came and where the job went, and the timeline shows the move', async () => {
    open({ 'GET /booking/12/track': () => json(200, afterAMove()) })
    expect(await screen.findByText('No answer from the first ambulance: sent to AMB-07')).toBeInTheDocument()
    const steps = within(screen.getByRole('region', { name: 'Trip timeline' })).getAllByRole('listitem')
    expect(steps.map((s) => s.textContent)).toEqual([
      expect.stringMatching(/^Requested/),
      expect.stringMatching(/^Sent to another ambulanceFrom AMB-01: no answer from its crew/),
      expect.stringMatching(/^Ambulance assignedNow/),
      'On the way to the pickup',
      'At the pickup',
      'On the way to the hospital',
      'At the hospital',
      'Handed over',
      'Completed',
    ])
    expect(screen.queryByText(/Still looking/)).not.toBeInTheDocument()
    expect(document.body.textContent).not.toMatch(/undefined|null|NaN/)
  })

  it('two misses, a dispatcher move, and a move with nothing said about it never print undefined', async () => {
    const timeline = [
      ...afterAMove().timeline,
      { stage: 'REASSIGNED' as const, at: '2026-03-01T09:33:00Z', fromAmbulance: 'AMB-02', reason: 'NO_ANSWER' as const },
      { stage: 'REASSIGNED' as const, at: '2026-03-01T09:34:00Z', fromAmbulance: 'AMB-03', reason: 'MANUAL' as const },
      { stage: 'REASSIGNED' as const, at: '2026-03-01T09:35:00Z' },
    ]
    open({ 'GET /booking/12/track': () => json(200, afterAMove({ timeline })) })
    expect(await screen.findByText('No answer from 2 ambulances: sent to AMB-07')).toBeInTheDocument()
    const region = within(screen.getByRole('region', { name: 'Trip timeline' }))
    expect(region.getAllByText('Sent to another ambulance')).toHaveLength(4)
    expect(region.getByText('From AMB-03: moved by the dispatcher')).toBeInTheDocument()
    expect(document.body.textContent).not.toMatch(/undefined|null|NaN/)
  })

  it('a dispatcher move alone says nothing about a missed answer', async () => {
    const timeline = afterAMove().timeline.map((e) => (e.stage === 'REASSIGNED' ? { ...e, reason: 'MANUAL' as const } : e))
    open({ 'GET /booking/12/track': () => json(200, afterAMove({ timeline })) })
    expect(await screen.findByText('From AMB-01: moved by the dispatcher')).toBeInTheDocument()
    expect(screen.queryByText(/No answer from/)).not.toBeInTheDocument()
  })

  it('still looking: call the emergency number, or one of the 3 hospitals nearest the pickup', async () => {
    const nearest = [
      { ...hospital(3, 'City Hospital', 1.2), contactInfo: '+91 100 200' },
      { ...hospital(4, 'Rural Clinic', 3.4), contactInfo: '+91 100 400' },
      { ...hospital(5, 'Far Hospital', 8), contactInfo: null },
    ]
    const { calls } = open({
      'GET /booking/12/track': () => json(200, afterAMove({ stillLooking: true, answerBy: ago(20_000) })),
      'GET /hospitals/nearest': () => json(200, nearest),
    })
    const box = within((await screen.findByRole('heading', { name: 'Still looking for an ambulance: call 911' })).closest('section')!)
    expect(box.getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911')
    expect(await box.findByText('Rural Clinic')).toBeInTheDocument()
    const near = calls.find((c) => c.path === '/hospitals/nearest')!
    expect([near.query.get('lat'), near.query.get('lng'), near.query.get('limit')]).toEqual(['30.7', '74.31', '3'])
    expect(box.getByRole('link', { name: /^Call \+91 100 400\s*, Rural Clinic$/ })).toHaveAttribute('href', 'tel:+91100400')
    expect(box.getByRole('link', { name: /^Call \+91 100 200\s*, City Hospital$/ })).toBeInTheDocument()
    expect(box.getByText('(the destination)')).toBeInTheDocument()
    expect(box.getByText('No phone number on record.')).toBeInTheDocument()
    // The move is still told beside it.
    expect(screen.getByText('No answer from the first ambulance: sent to AMB-07')).toBeInTheDocument()
  })

  it('still looking with no hospital found: the destination hospital and its phone', async () => {
    open({
      'GET /booking/12/track': () => json(200, afterAMove({ stillLooking: true, timeline: afterAMove().timeline.slice(0, 3) })),
      'GET /hospitals/nearest': () => json(200, []),
    })
    const box = within((await screen.findByRole('heading', { name: 'Still looking for an ambulance: call 911' })).closest('section')!)
    expect(box.getByText('City Hospital')).toBeInTheDocument()
    expect(box.getByRole('link', { name: /^Call \+91 100 200\s*, City Hospital$/ })).toHaveAttribute('href', 'tel:+91100200')
    expect(screen.queryByText(/No answer from/)).not.toBeInTheDocument()
  })

  it('no longer looking once the server says so: the box goes at the next update', async () => {
    fakeClock()
    let answer = afterAMove({ stillLooking: true })
    open({ 'GET /booking/12/track': () => json(200, answer), 'GET /hospitals/nearest': () => json(200, []) })
    expect(await screen.findByRole('heading', { name: /^Still looking/ })).toBeInTheDocument()
    answer = afterAMove({ stillLooking: false, tripStage: 'EN_ROUTE', answerBy: null })
    await elapse(TRACK_POLL_MS)
    await act(async () => {})
    expect(screen.queryByRole('heading', { name: /^Still looking/ })).not.toBeInTheDocument()
  })
})

describe('trackPollInterval', () => {
  it('polls every 5 s while open, and stops when final or refused', () => {
    expect(trackPollInterval(undefined, null)).toBe(5000)
    expect(trackPollInterval(trip(), null)).toBe(5000)
    expect(trackPollInterval(trip({ bookingStatus: 'PENDING' }), null)).toBe(5000)
    expect(trackPollInterval(trip({ bookingStatus: 'COMPLETED' }), null)).toBe(false)
    expect(trackPollInterval(trip({ bookingStatus: 'CANCELLED' }), null)).toBe(false)
    expect(trackPollInterval(undefined, new ApiError('Forbidden', 403, 'http'))).toBe(false)
    expect(trackPollInterval(trip(), new ApiError('Network Error', 0, 'network'))).toBe(5000)
  })
})

describe('TrackBookingPage: told when the ambulance arrives', () => {
  it('offers the step to the requester, never asking by itself, and subscribes on the tap', async () => {
    const push = fakePush('default')
    const { calls } = open({
      'GET /booking/12/track': () => json(200, trip()),
      'GET /push/key': () => json(200, { publicKey: SERVER_KEY }),
      'PUT /push/subscription': () => new Response(null, { status: 204 }),
    })
    const step = await screen.findByRole('region', { name: 'Tell me when the ambulance arrives' })
    expect(push.requestPermission).not.toHaveBeenCalled()
    await userEvent.click(within(step).getByRole('button', { name: 'Notify me' }))
    expect(await screen.findByText('You will get a notification when the ambulance arrives.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PUT' && c.path === '/push/subscription')).toHaveLength(1)
  })

  it('not once the ambulance is there, nor for an admin watching', async () => {
    fakePush('default')
    open({ 'GET /booking/12/track': () => json(200, trip({ tripStage: 'AT_PICKUP' })) })
    expect(await screen.findByRole('heading', { name: 'Booking #12' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Tell me when the ambulance arrives' })).not.toBeInTheDocument()
    cleanup()
    open({ 'GET /booking/12/track': () => json(200, trip()) }, adminUser)
    expect(await screen.findByRole('heading', { name: 'Booking #12' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Tell me when the ambulance arrives' })).not.toBeInTheDocument()
  })
})
