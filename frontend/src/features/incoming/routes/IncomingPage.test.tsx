import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import type { Incoming, IncomingTrip, User } from '@/lib/types'
import { elapse, fakeClock } from '@/test/clock'
import { incomingTrip } from '@/test/fixtures'
import { json, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { BOARD_POLL_MS } from '../api/incoming'
import IncomingPage from './IncomingPage'

vi.mock('@/lib/sound', () => ({ beep: vi.fn(), unlockAudioOnGesture: () => () => {} }))
afterEach(() => vi.unstubAllGlobals())

const staff = { id: 60, username: 'er-desk', email: 'er@example.com', phone: '+15550160', latitude: null, longitude: null, role: 'HOSPITAL', createdAt: '' } as unknown as User

const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
const trip = incomingTrip
const board = (trips: IncomingTrip[], onDiversionUntil: string | null = null): Incoming => ({ hospital: { id: 3, name: 'City Hospital', onDiversionUntil }, trips })

function open(routes: Record<string, (call: FetchCall) => Response>) {
  saveSession({ token: 't', user: staff, role: 'HOSPITAL', id: staff.id })
  const stub = routeFetch(routes)
  renderRoutes([{ path: '/hospital', element: <IncomingPage /> }], '/hospital')
  return stub
}

const part = (name: RegExp) => screen.getByRole('region', { name })
const card = (ambulance: string) => screen.getByRole('article', { name: new RegExp(`^Ambulance ${ambulance}`) })

describe('IncomingPage', () => {
  it('at the door first (the wait ticking), then on the way (the ETA counting down between answers), then handed over', async () => {
    fakeClock()
    const answer = board([
      trip(21, { stage: 'AT_HOSPITAL', etaSeconds: null, arrivedAt: ago(4 * 60_000 + 58_000), patient: { age: 67, gender: 'Male', condition: 'Breathless' } }),
      trip(22, { bookingType: 'EMERGENCY', etaSeconds: 62, patient: { age: 40, gender: 'Female', condition: 'Chest pain' } }),
      trip(23, { etaSeconds: null, crewPhone: null }),
      trip(24, { stage: 'HANDED_OVER', etaSeconds: null, arrivedAt: '2026-03-01T09:00:00Z', handedOverAt: '2026-03-01T09:12:00Z' }),
    ])
    const { calls } = open({ 'GET /hospital/incoming': () => json(200, answer) })
    expect(await screen.findByRole('heading', { name: 'Incoming ambulances', level: 1 })).toBeInTheDocument()
    expect(screen.getByText(/^Ambulances coming to City Hospital, most urgent first\./)).toBeInTheDocument()
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent).filter((t) => /\(\d\)$/.test(t ?? ''))).toEqual([
      'At the door (1)',
      'On the way (2)',
      'Handed over and finished (last 24 hours) (1)',
    ])
    expect(within(part(/^On the way/)).getAllByRole('article').map((a) => a.getAttribute('aria-labelledby'))).toEqual(['trip-22', 'trip-23'])

    const door = within(card('PB-51'))
    expect(door.getByRole('timer')).toHaveTextContent('Waiting for 4 min')
    expect(door.getByText('67 years · Male')).toBeInTheDocument()
    expect(door.getByText('Breathless')).toBeInTheDocument()
    expect(door.getByRole('link', { name: /^Call the crew/ })).toHaveAttribute('href', 'tel:+919814000031')
    const coming = within(card('PB-52'))
    expect(coming.getByText('Emergency')).toBeInTheDocument()
    expect(coming.getByText('Booking #22 · Coming to you')).toBeInTheDocument()
    expect(coming.getByRole('timer')).toHaveTextContent('2 min')
    expect(within(card('PB-53')).getByRole('timer')).toHaveTextContent('Unknown: no position yet')
    expect(within(card('PB-53')).getByText('No patient details yet')).toBeInTheDocument()
    expect(within(card('PB-53')).getByText('No crew phone')).toBeInTheDocument()
    expect(within(card('PB-54')).getByText(/^Handed over .+ · handover took 12 min$/)).toBeInTheDocument()
    // Only an arrived one can be handed over.
    expect(screen.getAllByRole('button', { name: /^Handover done/ })).toHaveLength(1)

    // Between two answers the ETA counts down and the wait counts up, each second.
    await elapse(3_000)
    expect(coming.getByRole('timer')).toHaveTextContent('under 1 min')
    expect(door.getByRole('timer')).toHaveTextContent('Waiting for 5 min')
    // The board is asked again every few seconds.
    await elapse(BOARD_POLL_MS)
    await waitFor(() => expect(calls.filter((c) => c.path === '/hospital/incoming').length).toBeGreaterThanOrEqual(2))
  })

  it('says so when nothing is coming', async () => {
    open({ 'GET /hospital/incoming': () => json(200, board([])) })
    expect(await screen.findByRole('heading', { name: 'No ambulances are coming to City Hospital' })).toBeInTheDocument()
  })

  it('a failed load says so, and its retry brings the board', async () => {
    let status = 500
    open({ 'GET /hospital/incoming': () => (status === 200 ? json(200, board([trip(21)])) : json(status, { message: 'no' })) })
    expect(await screen.findByText('Failed to load the incoming ambulances')).toBeInTheDocument()
    status = 200
    await userEvent.click(screen.getByRole('button', { name: /Try again|Retry/ }))
    expect(await screen.findByRole('article', { name: /^Ambulance PB-51/ })).toBeInTheDocument()
  })

  it('a 403 says the screen is for hospital staff, without a retry', async () => {
    open({ 'GET /hospital/incoming': () => json(403, { message: 'Forbidden' }) })
    expect(await screen.findByText('This screen is for hospital staff.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Try again|Retry/ })).not.toBeInTheDocument()
  })

  it('"Handover done" asks first, then records it; the board follows', async () => {
    let answer = board([trip(21, { stage: 'AT_HOSPITAL', etaSeconds: null, arrivedAt: ago(60_000) })])
    const { calls } = open({
      'GET /hospital/incoming': () => json(200, answer),
      'POST /hospital/bookings/21/handover': () => {
        answer = board([trip(21, { stage: 'HANDED_OVER', etaSeconds: null, arrivedAt: ago(60_000), handedOverAt: new Date().toISOString() })])
        return json(200, {})
      },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Handover done for booking #21' }))
    const dialog = screen.getByRole('dialog', { name: 'Handover of booking #21' })
    expect(within(dialog).getByText('Has the crew of ambulance PB-51 handed the patient over to your staff?')).toBeInTheDocument()
    // Cancel writes nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.click(screen.getByRole('button', { name: 'Handover done for booking #21' }))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, handover done' }))
    expect(await screen.findByText('Handover of booking #21 recorded.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1)
    expect(await screen.findByRole('heading', { name: 'Handed over and finished (last 24 hours) (1)' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^Handover done/ })).not.toBeInTheDocument()
  })

  it('a 409 on the handover says plainly that the crew already did it', async () => {
    open({
      'GET /hospital/incoming': () => json(200, board([trip(21, { stage: 'AT_HOSPITAL', etaSeconds: null, arrivedAt: ago(60_000) })])),
      'POST /hospital/bookings/21/handover': () => json(409, { message: 'The trip is at HANDED_OVER, not AT_HOSPITAL' }),
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Handover done for booking #21' }))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, handover done' }))
    expect(await screen.findByText('The handover is already recorded: the crew has done it.')).toBeInTheDocument()
  })

  it('goes on diversion for 2 hours, shows until when, and ends it', async () => {
    let until: string | null = null
    const { calls } = open({
      'GET /hospital/incoming': () => json(200, board([], until)),
      'PUT /hospital/diversion': (c) => {
        until = (c.body as { until: string }).until
        return json(200, { id: 3, name: 'City Hospital', address: '3 Main Road', latitude: 30.63, longitude: 74.3, contactInfo: null, onDiversionUntil: until })
      },
      'DELETE /hospital/diversion': () => {
        until = null
        return json(200, { id: 3, name: 'City Hospital', address: '3 Main Road', latitude: 30.63, longitude: 74.3, contactInfo: null, onDiversionUntil: null })
      },
    })
    const panel = within(await screen.findByRole('region', { name: 'Diversion' }))
    expect(panel.getByText('Open: ambulances may be sent here.')).toBeInTheDocument()
    const before = Date.now()
    await userEvent.click(panel.getByRole('button', { name: 'For 2 hours' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true))
    const sent = Date.parse((calls.find((c) => c.method === 'PUT')!.body as { until: string }).until)
    expect(sent - before).toBeGreaterThanOrEqual(2 * 3_600_000 - 1000)
    expect(sent - Date.now()).toBeLessThanOrEqual(2 * 3_600_000)
    const hhmm = new Date(sent).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' })
    expect(await panel.findByText(`On diversion until ${hhmm}`)).toBeInTheDocument()
    await userEvent.click(panel.getByRole('button', { name: 'End diversion' }))
    expect(await panel.findByText('Diversion ended: the hospital is open.')).toBeInTheDocument()
    expect(await panel.findByRole('button', { name: 'For 1 hour' })).toBeInTheDocument()
  })

  it('a time of one’s own: none typed is refused here; the server’s refusal naming `until` is shown on the field', async () => {
    const { calls } = open({
      'GET /hospital/incoming': () => json(200, board([])),
      'PUT /hospital/diversion': () => json(400, { message: 'until must be at most 24 h ahead', field: 'until' }),
    })
    const panel = within(await screen.findByRole('region', { name: 'Diversion' }))
    await userEvent.click(panel.getByRole('button', { name: 'Set' }))
    expect(panel.getByRole('alert')).toHaveTextContent('Choose a time in the future.')
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)
    await userEvent.type(panel.getByLabelText('Until'), '23:59')
    await userEvent.click(panel.getByRole('button', { name: 'Set' }))
    expect(await panel.findByText('until must be at most 24 h ahead')).toBeInTheDocument()
    expect(panel.getByLabelText('Until')).toHaveAttribute('aria-invalid', 'true')
  })
})
