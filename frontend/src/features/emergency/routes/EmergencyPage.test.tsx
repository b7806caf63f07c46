import { onlineManager } from '@tanstack/react-query'
import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HOLD_MS } from '@/components/HoldButton'
import { saveSession } from '@/lib/session'
import type { User } from '@/lib/types'
import { booking, demoUser } from '@/test/fixtures'
import { fix, stubNavigator } from '@/test/geolocation'
import { json, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { pendingEmergency } from '../pending'
import EmergencyPage from './EmergencyPage'

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }))
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  sessionStorage.clear()
  onlineManager.setOnline(true)
})

type Geo = { ok?: GeolocationPosition; fail?: number }

/** A phone whose position comes when `settle` is called (or at once with `now`). */
function phone(answer: Geo | null) {
  let settle: (a: Geo) => void = () => undefined
  stubNavigator({
    geolocation: {
      getCurrentPosition: (ok, fail) => {
        settle = (a) => (a.ok ? ok(a.ok) : fail?.({ code: a.fail!, PERMISSION_DENIED: 1 } as GeolocationPositionError))
        if (answer) settle(answer)
      },
    },
  })
  // Async act: the position's promise callbacks run (and render) before it returns.
  return { settle: (a: Geo) => act(async () => settle(a)) }
}

function open(routes: Record<string, (call: FetchCall) => Response | Promise<Response>>, user: User = demoUser) {
  saveSession({ token: 't', user, role: user.role, id: user.id })
  const stub = routeFetch(routes)
  const view = renderRoutes(
    [
      { path: '/emergency', element: <EmergencyPage /> },
      { path: '/bookings/:id', element: <p>trip page</p> },
    ],
    '/emergency',
  )
  return { ...stub, ...view }
}

const dispatched = booking(41, { bookingType: 'EMERGENCY', bookingStatus: 'ACTIVE' })
const holdButton = () => screen.getByRole('button', { name: /^(Hold to send an ambulance|Sending\.\.\.)$/ })

function hold() {
  const button = holdButton()
  fireEvent.pointerDown(button, { button: 0, pointerId: 1 })
  act(() => vi.advanceTimersByTime(HOLD_MS))
  fireEvent.pointerUp(button)
}

const posts = (calls: FetchCall[]) => calls.filter((c) => c.method === 'POST' && c.path === '/booking/emergency')

describe('EmergencyPage', () => {
  it('sends the phone’s position after one hold, with an Idempotency-Key, then shows the trip', async () => {
    phone({ ok: fix(30.71, 74.35) })
    const { calls, router } = open({ 'POST /booking/emergency': () => json(201, dispatched) })
    expect(await screen.findByText('Pickup: your current location (within 8 m).')).toBeInTheDocument()
    // The call button is there from the start.
    expect(screen.getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911')
    hold()
    expect(await screen.findByText('trip page')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/bookings/41')
    expect(router.state.location.state).toEqual({ dispatched: true })
    const [post] = posts(calls)
    expect(post!.body).toEqual({ pickup: { latitude: 30.71, longitude: 74.35 } })
    expect(post!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(pendingEmergency()).toBeNull()
  })

  it('held while still locating: goes the moment the position is found, with the landmark typed meanwhile', async () => {
    const geo = phone(null)
    const { calls } = open({ 'POST /booking/emergency': () => json(201, dispatched) })
    expect(screen.getByText('Finding your location...')).toBeInTheDocument()
    fireEvent.change(screen.getByLabelText('Landmark (optional)'), { target: { value: 'blue gate' } })
    hold()
    expect(screen.getByText('Held: sending as soon as your location is found...')).toBeInTheDocument()
    expect(posts(calls)).toHaveLength(0)
    await geo.settle({ ok: fix(30.7, 74.3) })
    expect(await screen.findByText('trip page')).toBeInTheDocument()
    expect(posts(calls)[0]!.body).toEqual({ pickup: { latitude: 30.7, longitude: 74.3, landmark: 'blue gate' } })
  })

  it('a position found during the hold is the one sent', async () => {
    const geo = phone(null)
    const { calls } = open({ 'POST /booking/emergency': () => json(201, dispatched) })
    const button = holdButton()
    fireEvent.pointerDown(button, { button: 0, pointerId: 1 })
    act(() => vi.advanceTimersByTime(HOLD_MS / 2))
    await geo.settle({ ok: fix(30.72, 74.36) })
    expect(screen.getByText('Pickup: your current location (within 8 m).')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(HOLD_MS / 2))
    fireEvent.pointerUp(button)
    expect(await screen.findByText('trip page')).toBeInTheDocument()
    expect(posts(calls)[0]!.body).toEqual({ pickup: { latitude: 30.72, longitude: 74.36 } })
  })

  it('keeps the Idempotency-Key until answered: retries and "Try again" send the same request', async () => {
    phone({ ok: fix(30.71, 74.35) })
    let up = false
    const { calls } = open({
      'POST /booking/emergency': () => (up ? json(201, dispatched) : Promise.reject(new TypeError('Failed to fetch'))),
    })
    await screen.findByText(/your current location/)
    hold()
    // 1 + 3 retries after 1, 2 and 4 s.
    await act(() => vi.advanceTimersByTimeAsync(1000 + 2000 + 4000))
    expect(await screen.findByText(/we do not know whether your request arrived/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Call 911' })).toBeInTheDocument()
    const sent = posts(calls)
    expect(sent).toHaveLength(4)
    const key = sent[0]!.headers['Idempotency-Key']
    expect(new Set(sent.map((c) => c.headers['Idempotency-Key']))).toEqual(new Set([key]))
    // Kept across a reload of the tab.
    expect(pendingEmergency()?.key).toBe(key)
    up = true
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('trip page')).toBeInTheDocument()
    expect(posts(calls)[4]!.headers['Idempotency-Key']).toBe(key)
    expect(pendingEmergency()).toBeNull()
  })

  it('429 (too many from this account): says to call now and when to try again; refused, the next try is a new request', async () => {
    phone({ ok: fix(30.71, 74.35) })
    const { calls } = open({
      'POST /booking/emergency': () =>
        new Response(JSON.stringify({ message: 'Too many emergency requests from your account. If you need help now, call the emergency number.' }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '1200' },
        }),
    })
    await screen.findByText(/your current location/)
    hold()
    expect(
      await screen.findByText('Too many emergency requests from this account. If you need help now, call 911. You can send a request again in 20 minutes.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911')
    // Refused, nothing made: never retried by itself, and no key kept for the next try.
    expect(posts(calls)).toHaveLength(1)
    expect(pendingEmergency()).toBeNull()
  })

  it('after a reload, an unanswered request is sent again as it was, under its key', async () => {
    sessionStorage.setItem(
      'emergency.pending',
      JSON.stringify({ key: 'k-1', body: { pickup: { latitude: 1, longitude: 2 } }, since: Date.now() - 5000 }),
    )
    phone({ ok: fix(30.71, 74.35) })
    const { calls } = open({ 'POST /booking/emergency': () => json(201, dispatched) })
    expect(screen.getByText(/A request you made a moment ago has had no answer yet/)).toBeInTheDocument()
    await screen.findByText(/your current location/)
    hold()
    expect(await screen.findByText('trip page')).toBeInTheDocument()
    expect(posts(calls)[0]!.headers['Idempotency-Key']).toBe('k-1')
    expect(posts(calls)[0]!.body).toEqual({ pickup: { latitude: 1, longitude: 2 } })
  })

  it('409 no ambulance: the 3 nearest hospitals with tap-to-call, the call button, and a fresh try', async () => {
    phone({ ok: fix(30.71, 74.35) })
    const hospitals = [1, 2, 3].map((i) => ({
      id: i,
      name: `Hospital ${i}`,
      address: `${i} Main Road`,
      latitude: 30.7,
      longitude: 74.3,
      contactInfo: i === 3 ? null : `+91 100 20${i}`,
      distance: i * 1.5,
    }))
    const { calls } = open({ 'POST /booking/emergency': () => json(409, { message: 'No ambulance is available near you', hospitals }) })
    await screen.findByText(/your current location/)
    hold()
    const region = await screen.findByRole('region', { name: 'No ambulance is available near you' })
    const rows = within(region).getAllByRole('listitem')
    expect(rows).toHaveLength(3)
    expect(within(rows[0]!).getByRole('link', { name: /^Call \+91 100 201 ?, Hospital 1$/ })).toHaveAttribute('href', 'tel:+91100201')
    expect(within(rows[1]!).getByText(/3\.0 km/)).toBeInTheDocument()
    expect(within(rows[2]!).getByText('No phone number on record.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911')
    // Answered: the next try is a new request.
    expect(pendingEmergency()).toBeNull()
    fireEvent.click(within(region).getByRole('button', { name: 'Try again' }))
    await act(() => vi.advanceTimersByTimeAsync(10))
    const sent = posts(calls)
    expect(sent).toHaveLength(2)
    expect(sent[1]!.headers['Idempotency-Key']).not.toBe(sent[0]!.headers['Idempotency-Key'])
  })

  it('409 open emergency: links to it', async () => {
    phone({ ok: fix(30.71, 74.35) })
    open({ 'POST /booking/emergency': () => json(409, { message: 'You already have an open emergency booking (#40)', bookingId: 40 }) })
    await screen.findByText(/your current location/)
    hold()
    expect(await screen.findByText('You already have an open emergency booking (#40)')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Follow booking #40' })).toHaveAttribute('href', '/bookings/40')
  })

  it('location denied: offers the profile location, and sends it', async () => {
    phone({ fail: 1 })
    const { calls } = open({ 'POST /booking/emergency': () => json(201, dispatched) })
    expect(
      await screen.findByText('Location access is off for this site. Pickup: the location in your profile. Move the pin below if you are somewhere else.'),
    ).toBeInTheDocument()
    expect(screen.getByLabelText('Pickup latitude')).toHaveValue('30.670000')
    hold()
    expect(await screen.findByText('trip page')).toBeInTheDocument()
    expect(posts(calls)[0]!.body).toEqual({ pickup: { latitude: 30.67, longitude: 74.33 } })
  })

  it('no position and no profile location: asks for the pin, and the button waits for it', async () => {
    stubNavigator({ geolocation: undefined })
    const { calls } = open({ 'POST /booking/emergency': () => json(201, dispatched) }, { ...demoUser, latitude: null, longitude: null })
    expect(
      await screen.findByText(
        'This browser cannot share your location. Place the pickup on the map below (tap the map, or type its coordinates), then hold the button.',
      ),
    ).toBeInTheDocument()
    expect(holdButton()).toBeDisabled()
    fireEvent.change(screen.getByLabelText('Pickup latitude'), { target: { value: '30.5' } })
    fireEvent.change(screen.getByLabelText('Pickup longitude'), { target: { value: '74.1' } })
    expect(screen.getByText('Pickup: the point you placed on the map.')).toBeInTheDocument()
    hold()
    expect(await screen.findByText('trip page')).toBeInTheDocument()
    expect(posts(calls)[0]!.body).toEqual({ pickup: { latitude: 30.5, longitude: 74.1 } })
  })

  it('offline: says the request goes when the connection is back, and sends it then', async () => {
    phone({ ok: fix(30.71, 74.35) })
    const { calls } = open({ 'POST /booking/emergency': () => json(201, dispatched) })
    await screen.findByText(/your current location/)
    act(() => onlineManager.setOnline(false))
    hold()
    expect(await screen.findByText(/No connection\. Your request goes out by itself/)).toBeInTheDocument()
    expect(posts(calls)).toHaveLength(0)
    expect(screen.getByRole('link', { name: 'Call 911' })).toBeInTheDocument()
    act(() => onlineManager.setOnline(true))
    expect(await screen.findByText('trip page')).toBeInTheDocument()
    expect(posts(calls)).toHaveLength(1)
  })

  it('a pickup the server refuses: its message, marked on the pickup, and what to do', async () => {
    phone({ ok: fix(30.71, 74.35) })
    open({ 'POST /booking/emergency': () => json(400, { message: 'pickup.latitude: must be between -90 and 90', field: 'pickup.latitude' }) })
    await screen.findByText(/your current location/)
    hold()
    expect(await screen.findByText('Check the pickup on the map, then hold the button again.')).toBeInTheDocument()
    expect(screen.getByLabelText('Pickup latitude')).toHaveAttribute('aria-invalid', 'true')
    expect(pendingEmergency()).toBeNull()
  })
})
