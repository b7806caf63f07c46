import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Booking, CrewMe, User } from '@/lib/types'
import { saveSession } from '@/lib/session'
import { ambulance, booking } from '@/test/fixtures'
import { elapse, fakeClock } from '@/test/clock'
import { fix, stubNavigator } from '@/test/geolocation'
import { fakePush, SERVER_KEY } from '@/test/push'
import { json, LAZY_MAP, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { beep } from '@/lib/sound'
import { CREW_POLL_MS } from '../api/crew'
import { HEARTBEAT_EVERY_MS } from '../useHeartbeat'
import CrewPage from './CrewPage'

vi.mock('@/lib/sound', () => ({ beep: vi.fn(), unlockAudioOnGesture: () => () => {} }))

const crewUser = { id: 50, username: 'crew1', email: 'crew1@example.com', phone: '+15550150', latitude: null, longitude: null, role: 'CREW', createdAt: '' } as unknown as User

/** A job as `GET /api/crew/me` answers it: a PENDING one, its one move accepting it. */
const job = (overrides: Partial<Booking> = {}): Booking => ({
  ...booking(12, { bookingType: 'EMERGENCY', ambulanceId: 31 }),
  userPhone: '+91 98140 00001',
  pickup: { latitude: 30.7, longitude: 74.31, landmark: 'gate 2, blue house' },
  tripStage: null,
  timeline: [{ stage: 'PENDING', at: '2026-03-01T09:30:00Z' }],
  moves: ['EN_ROUTE'],
  ...overrides,
})

const me = (j: Booking | null, status: CrewMe['ambulance']['status'] = j ? 'ON_DUTY' : 'AVAILABLE'): CrewMe => ({
  crew: { id: 50, username: 'crew1', phone: '+15550150' },
  ambulance: { ...ambulance(31, 3, status), crewPresence: 'ONLINE', position: null },
  job: j,
  destination: j ? { id: 3, name: 'City Hospital', latitude: 30.63, longitude: 74.3, onDiversionUntil: null } : null,
  alternative: null,
})

/** Where watchPosition's callbacks go, so a test can move the phone. */
let watcher: { ok: PositionCallback; fail?: PositionErrorCallback } | null = null

beforeEach(() => {
  watcher = null
  stubNavigator({
    vibrate: vi.fn(),
    geolocation: {
      watchPosition: (ok: PositionCallback, fail?: PositionErrorCallback) => {
        watcher = { ok, fail }
        return 1
      },
      clearWatch: vi.fn(),
      getCurrentPosition: vi.fn(),
    },
  })
})
afterEach(() => vi.unstubAllGlobals())

function open(routes: Record<string, (call: FetchCall) => Response>) {
  saveSession({ token: 't', user: crewUser, role: 'CREW', id: 50 })
  const stub = routeFetch({ 'PUT /crew/location': () => new Response(null, { status: 204 }), ...routes })
  renderRoutes([{ path: '/crew', element: <CrewPage /> }], '/crew')
  return stub
}

describe('CrewPage', () => {
  it('between jobs: the ambulance, its status switch, and a new job within 5 s without reload', async () => {
    fakeClock()
    let answer = me(null)
    const { calls } = open({ 'GET /crew/me': () => json(200, answer) })
    expect(await screen.findByRole('heading', { name: 'Ambulance PB-31' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'No job right now' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Available' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByRole('button', { name: 'Maintenance' })).toHaveAttribute('aria-pressed', 'false')
    answer = me(job())
    await elapse(CREW_POLL_MS)
    expect(await screen.findByRole('heading', { name: 'Current job #12' })).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/crew/me').length).toBeGreaterThanOrEqual(2)
    expect(navigator.vibrate).toHaveBeenCalled()
  })

  it('says the crew is there (a heartbeat) at once and every 30 s, and not while out of service', async () => {
    fakeClock()
    let answer = me(null)
    const { calls } = open({ 'GET /crew/me': () => json(200, answer), 'PUT /crew/presence': () => new Response(null, { status: 204 }) })
    expect(await screen.findByRole('heading', { name: 'Ambulance PB-31' })).toBeInTheDocument()
    const beats = () => calls.filter((c) => c.method === 'PUT' && c.path === '/crew/presence').length
    await waitFor(() => expect(beats()).toBe(1))
    await elapse(HEARTBEAT_EVERY_MS)
    expect(beats()).toBe(2)
    // Out of service: the screen stops saying so.
    answer = me(null, 'MAINTENANCE')
    await elapse(CREW_POLL_MS)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Maintenance' })).toHaveAttribute('aria-pressed', 'true'))
    const before = beats()
    await elapse(2 * HEARTBEAT_EVERY_MS)
    expect(beats()).toBe(before)
  })

  it('switches the ambulance to Maintenance', async () => {
    const { calls } = open({
      'GET /crew/me': () => json(200, me(null)),
      'PATCH /crew/status': () => json(200, ambulance(31, 3, 'MAINTENANCE')),
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Maintenance' }))
    expect(await screen.findByText('Ambulance status changed.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/crew/status', body: { status: 'MAINTENANCE' } })
  })

  it('shows the job: patient, condition, the requester to call, the pickup with directions, the hospital', async () => {
    open({ 'GET /crew/me': () => json(200, me(job())) })
    const card = within(await screen.findByRole('region', { name: 'Current job #12' }))
    expect(card.getByText('Emergency')).toBeInTheDocument()
    expect(card.getByText('Requested')).toBeInTheDocument()
    expect(card.getByText('Patient 12')).toBeInTheDocument()
    expect(card.getByText('Chest pain')).toBeInTheDocument()
    expect(card.getByRole('link', { name: /^Call demo/ })).toHaveAttribute('href', 'tel:+919814000001')
    expect(card.getByText('gate 2, blue house')).toBeInTheDocument()
    const toPickup = card.getByRole('link', { name: /^Navigate to pickup/ })
    expect(toPickup).toHaveAttribute('href', 'https://www.google.com/maps/dir/?api=1&destination=30.7%2C74.31&travelmode=driving')
    expect(toPickup).toHaveAttribute('target', '_blank')
    expect(card.getByText('City Hospital')).toBeInTheDocument()
    expect(card.getByRole('link', { name: /^Navigate to hospital/ }).getAttribute('href')).toContain('destination=30.63%2C74.3')
    expect(await card.findByRole('region', { name: 'Map of the pickup and your ambulance' }, LAZY_MAP)).toBeInTheDocument()
  })

  it('a one-tap emergency: no details yet says so, then shows those that arrive (and only those)', async () => {
    const none = { name: null, age: null, gender: null, condition: null }
    fakeClock()
    let answer = me(job({ tripStage: 'DISPATCHED', bookingStatus: 'ACTIVE', patient: none }))
    open({ 'GET /crew/me': () => json(200, answer) })
    const card = within(await screen.findByRole('region', { name: 'Current job #12' }))
    expect(card.getByText(/^No details yet: the requester may send them/)).toBeInTheDocument()
    expect(card.queryByText(/null|Condition:/)).not.toBeInTheDocument()
    answer = me(job({ tripStage: 'DISPATCHED', bookingStatus: 'ACTIVE', patient: { ...none, age: 64, condition: 'Not breathing well' } }))
    await elapse(CREW_POLL_MS)
    expect(await card.findByText('Not breathing well')).toBeInTheDocument()
    expect(card.getByText('Patient not named yet')).toBeInTheDocument()
    expect(card.getByText('· 64')).toBeInTheDocument()
    expect(card.queryByText(/No details yet/)).not.toBeInTheDocument()
  })

  it('one big button moves the job to its next stage', async () => {
    let answer = me(job())
    const { calls } = open({
      'GET /crew/me': () => json(200, answer),
      'PATCH /crew/job/stage': (c) => {
        answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'EN_ROUTE', moves: ['AT_PICKUP'] }))
        return json(200, { ...answer.job, echo: c.body })
      },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Accept job' }))
    expect(await screen.findByRole('button', { name: 'Arrived at pickup' })).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ bookingId: 12, stage: 'EN_ROUTE' })
    expect(screen.getByText('On the way to the pickup')).toBeInTheDocument()
  })

  it('completing the job says so and goes back to the idle screen', async () => {
    let answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'AT_HOSPITAL', moves: ['COMPLETED'] }))
    const { calls } = open({
      'GET /crew/me': () => json(200, answer),
      'PATCH /crew/job/stage': () => {
        answer = me(null)
        return json(200, job({ bookingStatus: 'COMPLETED', tripStage: 'AT_HOSPITAL', moves: [] }))
      },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Complete job' }))
    expect(await screen.findByText('Job completed. The ambulance is available again.')).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'No job right now' })).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ bookingId: 12, stage: 'COMPLETED' })
  })

  it('after arrival the one button records the handover first, then completes', async () => {
    // The server offers both after AT_HOSPITAL; the handover (its time goes to the report) comes first.
    let answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'AT_HOSPITAL', moves: ['COMPLETED', 'HANDED_OVER'] }))
    const { calls } = open({
      'GET /crew/me': () => json(200, answer),
      'PATCH /crew/job/stage': () => {
        answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'HANDED_OVER', moves: ['COMPLETED'] }))
        return json(200, answer.job)
      },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Handover done' }))
    expect(await screen.findByRole('button', { name: 'Complete job' })).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ bookingId: 12, stage: 'HANDED_OVER' })
    expect(screen.getByText('Handed over')).toBeInTheDocument()
    // At the hospital the destination no longer changes.
    expect(screen.queryByRole('button', { name: 'Change hospital' })).not.toBeInTheDocument()
  })

  it('the destination on diversion: says until when, and one tap switches to the open hospital offered', async () => {
    const until = new Date(Date.now() + 2 * 3_600_000).toISOString()
    const hhmm = new Date(until).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' })
    const onTheWay = job({ bookingStatus: 'ACTIVE', tripStage: 'EN_ROUTE', moves: ['AT_PICKUP'] })
    let answer: CrewMe = {
      ...me(onTheWay),
      destination: { id: 3, name: 'City Hospital', latitude: 30.63, longitude: 74.3, onDiversionUntil: until },
      alternative: { id: 4, name: 'Civil Hospital', address: '4 Main Road', latitude: 30.64, longitude: 74.3, contactInfo: null, distance: 2.4, onDiversionUntil: null },
    }
    const { calls } = open({
      'GET /crew/me': () => json(200, answer),
      'PATCH /crew/job/destination': () => {
        const moved = { ...onTheWay, destinationHospitalId: 4, destinationHospitalName: 'Civil Hospital' }
        answer = { ...me(moved), destination: { id: 4, name: 'Civil Hospital', latitude: 30.64, longitude: 74.3, onDiversionUntil: null }, alternative: null }
        return json(200, moved)
      },
    })
    const warning = await screen.findByRole('region', { name: `City Hospital is on diversion until ${hhmm}` })
    expect(within(warning).getByText(/You may still go there/)).toBeInTheDocument()
    // The job card marks it too.
    expect(within(screen.getByRole('region', { name: 'Current job #12' })).getByText(`On diversion until ${hhmm}`)).toBeInTheDocument()
    await userEvent.click(within(warning).getByRole('button', { name: 'Go to Civil Hospital instead (2.4 km)' }))
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ bookingId: 12, hospitalId: 4 })
    expect(await screen.findByText('Destination changed to Civil Hospital.')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('region', { name: /on diversion/ })).not.toBeInTheDocument())
    expect(within(screen.getByRole('region', { name: 'Current job #12' })).getByText('Civil Hospital')).toBeInTheDocument()
  })

  it('"Change hospital" lists the nearest hospitals from the ambulance, marks those on diversion, and says a refusal', async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString()
    const hhmm = new Date(until).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' })
    const answer: CrewMe = {
      ...me(job({ bookingStatus: 'ACTIVE', tripStage: 'TO_HOSPITAL', moves: ['AT_HOSPITAL'] })),
      ambulance: { ...ambulance(31, 3, 'ON_DUTY'), crewPresence: 'ONLINE', position: { latitude: 30.7, longitude: 74.31, at: new Date().toISOString(), stale: false, source: 'GPS' } },
    }
    const near = [
      { id: 3, name: 'City Hospital', address: '3 Main Road', latitude: 30.63, longitude: 74.3, contactInfo: null, distance: 1.2, onDiversionUntil: null },
      { id: 5, name: 'Rose Hospital', address: '5 Main Road', latitude: 30.65, longitude: 74.3, contactInfo: null, distance: 3.1, onDiversionUntil: until },
    ]
    const { calls } = open({
      'GET /crew/me': () => json(200, answer),
      'GET /hospitals/nearest': () => json(200, near),
      'PATCH /crew/job/destination': () => json(409, { message: 'The trip is at the hospital already' }),
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Change hospital' }))
    const dialog = await screen.findByRole('dialog', { name: 'Change the destination hospital' })
    const search = calls.find((c) => c.path === '/hospitals/nearest')!
    expect([search.query.get('lat'), search.query.get('lng')]).toEqual(['30.7', '74.31'])
    // The current destination is shown, not offered; the one on diversion is marked and may still be chosen.
    expect(await within(dialog).findByRole('button', { name: /^Go to City Hospital · 1.2 km · current/ })).toBeDisabled()
    const rose = within(dialog).getByRole('button', { name: `Go to Rose Hospital · 3.1 km On diversion until ${hhmm}` })
    await userEvent.click(rose)
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ bookingId: 12, hospitalId: 5 })
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The trip is at the hospital already')
  })

  it("a stale tap (409) shows the server's reason and the job as it is now", async () => {
    let answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'EN_ROUTE', moves: ['AT_PICKUP'] }))
    open({
      'GET /crew/me': () => json(200, answer),
      'PATCH /crew/job/stage': () => {
        answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'AT_PICKUP', moves: ['TO_HOSPITAL'] }))
        return json(409, { message: 'The trip is at AT_PICKUP, not EN_ROUTE' })
      },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Arrived at pickup' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The trip is at AT_PICKUP, not EN_ROUTE')
    expect(await screen.findByRole('button', { name: 'Patient on board: go to hospital' })).toBeInTheDocument()
  })

  it('a new job counts down to its answer deadline each second, then says it may move', async () => {
    fakeClock()
    let answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'DISPATCHED', answerBy: new Date(Date.now() + 42_000).toISOString() }))
    open({ 'GET /crew/me': () => json(200, answer) })
    const timer = await screen.findByRole('timer')
    expect(timer).toHaveTextContent('Answer within 0:42')
    expect(timer).toHaveTextContent('Accept the job, or it moves to another ambulance.')
    await elapse(1000)
    expect(screen.getByRole('timer')).toHaveTextContent('Answer within 0:41')
    await elapse(30_000)
    expect(screen.getByRole('timer')).toHaveTextContent('Answer within 0:11')
    await elapse(11_000)
    expect(screen.getByRole('timer')).toHaveTextContent('Time is up: this job may move to another ambulance. Accept now if you can.')
    expect(screen.getByRole('timer')).not.toHaveTextContent(/Answer within|undefined|NaN/)
    expect(screen.getByRole('button', { name: 'Accept job' })).toBeInTheDocument()
    // Accepted: the server drops the deadline, and the countdown goes.
    answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'EN_ROUTE', answerBy: null, moves: ['AT_PICKUP'] }))
    await elapse(CREW_POLL_MS)
    expect(await screen.findByRole('button', { name: 'Arrived at pickup' })).toBeInTheDocument()
    expect(screen.queryByRole('timer')).not.toBeInTheDocument()
  })

  it('no countdown without a deadline, nor once the job is under way', async () => {
    let answer = me(job({ answerBy: null }))
    open({ 'GET /crew/me': () => json(200, answer) })
    expect(await screen.findByRole('button', { name: 'Accept job' })).toBeInTheDocument()
    expect(screen.queryByRole('timer')).not.toBeInTheDocument()
    cleanup()
    // A deadline the server has not cleared yet on a job already accepted is not shown.
    answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'AT_PICKUP', answerBy: new Date(Date.now() + 30_000).toISOString(), moves: ['TO_HOSPITAL'] }))
    open({ 'GET /crew/me': () => json(200, answer) })
    expect(await screen.findByRole('button', { name: 'Patient on board: go to hospital' })).toBeInTheDocument()
    expect(screen.queryByRole('timer')).not.toBeInTheDocument()
  })

  it('after a missed job: says so, Available is the one big button, and tapping it clears the mark', async () => {
    const missed = me(null, 'ON_DUTY')
    missed.ambulance = { ...missed.ambulance, notResponding: '2026-03-01T09:31:00Z' }
    let answer = missed
    const { calls } = open({
      'GET /crew/me': () => json(200, answer),
      'PATCH /crew/status': () => {
        answer = me(null, 'AVAILABLE')
        return json(200, answer.ambulance)
      },
    })
    expect(await screen.findByRole('alert')).toHaveTextContent('You missed a job. Tap Available to take jobs again.')
    const available = screen.getByRole('button', { name: 'Available' })
    expect(available).toHaveAttribute('aria-pressed', 'false')
    expect(available.className).toContain('col-span-2')
    expect(screen.queryByText(/On duty without a job/)).not.toBeInTheDocument()
    await userEvent.click(available)
    expect(await screen.findByText('Ambulance status changed.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/crew/status', body: { status: 'AVAILABLE' } })
    expect(await screen.findByRole('button', { name: 'Available' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.queryByText(/You missed a job/)).not.toBeInTheDocument()
  })

  it("shows the server's move, and no button when it lists none", async () => {
    // The step comes from `moves`, not from the stage: the server may know better.
    let answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'TO_HOSPITAL', moves: ['AT_HOSPITAL'] }))
    open({ 'GET /crew/me': () => json(200, answer) })
    expect(await screen.findByRole('button', { name: 'Arrived at hospital' })).toBeInTheDocument()
    cleanup()
    answer = me(job({ bookingStatus: 'ACTIVE', tripStage: 'TO_HOSPITAL', moves: [] }))
    open({ 'GET /crew/me': () => json(200, answer) })
    await screen.findByRole('heading', { name: 'Current job #12' })
    expect(screen.queryByRole('button', { name: /Arrived|Accept|Complete|Patient on board/ })).not.toBeInTheDocument()
  })

  it('shares the position: sends the first fix, holds back one that moved under 20 m', async () => {
    const { calls } = open({ 'GET /crew/me': () => json(200, me(job({ bookingStatus: 'ACTIVE', tripStage: 'EN_ROUTE', moves: ['AT_PICKUP'] }))) })
    await screen.findByRole('heading', { name: 'Current job #12' })
    expect(screen.getByText('Finding your position...')).toBeInTheDocument()
    const t = Date.parse('2026-03-01T10:00:00Z')
    watcher!.ok(fix(30.69, 74.32, t))
    await waitFor(() => expect(calls.filter((c) => c.path === '/crew/location')).toHaveLength(1))
    expect(calls.find((c) => c.path === '/crew/location')!.body).toEqual({
      latitude: 30.69,
      longitude: 74.32,
      accuracyM: 8,
      recordedAt: '2026-03-01T10:00:00.000Z',
    })
    expect(await screen.findByText('Sharing your location')).toBeInTheDocument()
    watcher!.ok(fix(30.69005, 74.32, t + 10_000)) // ~5 m
    await new Promise((r) => setTimeout(r, 50))
    expect(calls.filter((c) => c.path === '/crew/location')).toHaveLength(1)
  })

  it('a fix lost for a moment and found again, held back by the throttle, still says it shares (not "Finding")', async () => {
    const { calls } = open({ 'GET /crew/me': () => json(200, me(null)) })
    await screen.findByRole('heading', { name: 'No job right now' })
    const t = Date.parse('2026-03-01T10:00:00Z')
    watcher!.ok(fix(30.69, 74.32, t))
    expect(await screen.findByText('Sharing your location')).toBeInTheDocument()
    watcher!.fail!({ code: 2, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3, message: 'lost' } as GeolocationPositionError)
    await waitFor(() => expect(screen.queryByText('Sharing your location')).not.toBeInTheDocument())
    // 50 m on, within a minute of the last report: held back, yet sharing goes on.
    watcher!.ok(fix(30.6905, 74.32, t + 10_000))
    expect(await screen.findByText('Sharing your location')).toBeInTheDocument()
    expect(screen.queryByText('Finding your position...')).not.toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/crew/location')).toHaveLength(1)
  })

  it('says so when location access is denied', async () => {
    open({ 'GET /crew/me': () => json(200, me(null)) })
    await screen.findByRole('heading', { name: 'No job right now' })
    watcher!.fail!({ code: 1, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3, message: 'denied' } as GeolocationPositionError)
    expect(await screen.findByText(/Location is off/)).toBeInTheDocument()
  })

  it('says "Failed to load your ambulance and job" with a retry', async () => {
    open({ 'GET /crew/me': () => json(500, { message: 'boom' }) })
    expect(await screen.findByText('Failed to load your ambulance and job')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})

/** A stand-in Screen Wake Lock: what was asked for, and whether it is held now. */
function stubWakeLock() {
  const lock = { held: 0, requests: 0 }
  const request = vi.fn(async () => {
    lock.requests++
    lock.held++
    const listeners: (() => void)[] = []
    return {
      addEventListener: (_: string, l: () => void) => listeners.push(l),
      release: async () => {
        lock.held--
        listeners.forEach((l) => l())
      },
    }
  })
  Object.defineProperty(navigator, 'wakeLock', { value: { request }, configurable: true })
  return lock
}

describe('CrewPage alerts', () => {
  beforeEach(() => vi.mocked(beep).mockClear())
  afterEach(() => {
    delete (navigator as unknown as Record<string, unknown>).wakeLock
  })

  it('without push: says alerts are off, keeps the screen on, and beeps and buzzes for a new job', async () => {
    fakeClock()
    const lock = stubWakeLock()
    let answer = me(null)
    open({ 'GET /crew/me': () => json(200, answer) })
    expect(await screen.findByRole('heading', { name: 'Alerts are off: keep this screen open' })).toBeInTheDocument()
    expect(screen.getByText(/on an iPhone, add AmbuCare to the Home Screen first/)).toBeInTheDocument()
    expect(await screen.findByText('The screen stays on while this page is open.')).toBeInTheDocument()
    expect(lock.held).toBe(1)
    expect(beep).not.toHaveBeenCalled()
    answer = me(job())
    await elapse(CREW_POLL_MS)
    expect(await screen.findByRole('heading', { name: 'Current job #12' })).toBeInTheDocument()
    expect(beep).toHaveBeenCalledTimes(1)
    expect(navigator.vibrate).toHaveBeenCalled()
  })

  it('never asks on opening; the explained step subscribes, and then the screen may sleep and stays quiet', async () => {
    const push = fakePush('default')
    const lock = stubWakeLock()
    const { calls } = open({
      'GET /crew/me': () => json(200, me(null)),
      'GET /push/key': () => json(200, { publicKey: SERVER_KEY }),
      'PUT /push/subscription': () => new Response(null, { status: 204 }),
    })
    const step = await screen.findByRole('region', { name: 'Let this phone ring when you get a job' })
    expect(push.requestPermission).not.toHaveBeenCalled()
    // Until it rings, the open screen is the alert.
    await waitFor(() => expect(lock.held).toBe(1))
    await userEvent.click(within(step).getByRole('button', { name: 'Turn on alerts' }))
    expect(await screen.findByText('Alerts are on: this phone rings when you get a job.')).toBeInTheDocument()
    expect(push.requestPermission).toHaveBeenCalledTimes(1)
    expect(calls.filter((c) => c.method === 'PUT' && c.path === '/push/subscription')).toHaveLength(1)
    await waitFor(() => expect(lock.held).toBe(0))
    expect(screen.queryByRole('heading', { name: 'Alerts are off: keep this screen open' })).not.toBeInTheDocument()
  })

  it('"Not now" turns to the plain notice, with the step gone for good', async () => {
    fakePush('default')
    open({ 'GET /crew/me': () => json(200, me(null)) })
    await userEvent.click(await screen.findByRole('button', { name: 'Not now' }))
    expect(screen.getByRole('heading', { name: 'Alerts are off: keep this screen open' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Let this phone ring when you get a job' })).not.toBeInTheDocument()
    cleanup()
    open({ 'GET /crew/me': () => json(200, me(null)) })
    expect(await screen.findByRole('heading', { name: 'Alerts are off: keep this screen open' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Not now' })).not.toBeInTheDocument()
  })

  it('blocked in the browser: the notice says where to allow them', async () => {
    fakePush('denied')
    open({ 'GET /crew/me': () => json(200, me(null)) })
    expect(await screen.findByRole('heading', { name: 'Alerts are off: keep this screen open' })).toBeInTheDocument()
    expect(screen.getByText(/Notifications are blocked for this site/)).toBeInTheDocument()
  })

  it('a subscription the server refuses: alerts are off, say why, try again', async () => {
    fakePush('granted')
    open({ 'GET /crew/me': () => json(200, me(null)), 'GET /push/key': () => json(503, {}) })
    const notice = await screen.findByRole('region', { name: 'Alerts are off: keep this screen open' })
    expect(within(notice).getByRole('alert')).toHaveTextContent('Alerts could not be turned on. Try again.')
    expect(within(notice).getByRole('button', { name: 'Try again' })).toBeEnabled()
  })
})
