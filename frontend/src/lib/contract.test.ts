import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { booking } from '@/test/fixtures'
import { json, routeFetch } from '@/test/render'
import { ApiError, call } from './api'
import type { Answer, Route, RouteInit } from './contract'
import { saveSession } from './session'
import type { Booking, BookingRequest, Hospital, Tracking } from './types'

afterEach(() => vi.unstubAllGlobals())

const signIn = () =>
  saveSession({ token: 'tok', role: 'USER', id: 1, user: { id: 1, username: 'u', email: 'u@x.io', phone: '', latitude: 1, longitude: 2, role: 'USER', createdAt: '' } })

const request: BookingRequest = {
  hospitalId: 3,
  ambulanceId: 31,
  bookingType: 'NORMAL',
  patient: { name: 'Asha', age: 40, gender: 'Female', condition: 'Fever' },
}

describe('call: a route of the contract, through api()', () => {
  it('sends the route’s method, its query and body, the headers and the token', async () => {
    signIn()
    const { calls } = routeFetch({ 'POST /booking/book': () => json(201, booking(7)) })
    const answer = await call('POST /booking/book', { query: { userId: 1 }, body: request, headers: { 'Idempotency-Key': 'k-1' } })
    expect(answer.id).toBe(7)
    const [sent] = calls
    expect(sent).toMatchObject({ method: 'POST', path: '/booking/book', body: request })
    expect(sent!.query.get('userId')).toBe('1')
    expect(sent!.headers).toMatchObject({ 'Idempotency-Key': 'k-1', Authorization: 'Bearer tok', 'Content-Type': 'application/json' })
  })

  it('fills the path’s parameters, URI-encoded, and asks with GET when the route says so', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => json(200, {}))
    vi.stubGlobal('fetch', fetchMock)
    await call('GET /booking/shared/{token}', { path: { token: 'a/b c?' }, anonymous: true })
    await call('GET /booking/{id}/track', { path: { id: 12 } })
    expect(fetchMock.mock.calls.map(([url, init]) => `${init.method} ${url}`)).toEqual([
      'GET /api/booking/shared/a%2Fb%20c%3F',
      'GET /api/booking/12/track',
    ])
  })

  it('keeps the wrapper’s errors (ApiError with its code) and its empty answers', async () => {
    routeFetch({
      'PATCH /booking/cancel': () => json(409, { message: 'Already cancelled', code: 'notCancellable' }),
      'DELETE /booking/5/share': () => new Response(null, { status: 204 }),
    })
    const error = await call('PATCH /booking/cancel', { query: { bookingId: 5 } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 409, message: 'Already cancelled', code: 'notCancellable', kind: 'http' })
    await expect(call('DELETE /booking/{id}/share', { path: { id: 5 } })).resolves.toBeUndefined()
  })
})

// Checked by `tsc -b` (npm run typecheck, make check), never run: each call below is one
// the contract refuses, so each `@ts-expect-error` must find an error or the build fails.
const refusedByTheContract = async () => {
  // @ts-expect-error: a path the contract does not have
  await call('GET /booking/everything')
  // @ts-expect-error: a method the path does not have (cancel is a PATCH)
  await call('POST /booking/cancel', { query: { bookingId: 1 } })
  // @ts-expect-error: the path without /api is the route; with it, it is none
  await call('GET /api/booking/history')
  // @ts-expect-error: a route with {id} needs it
  await call('GET /booking/{id}/track')
  // @ts-expect-error: {id} is a number
  await call('GET /booking/{id}/track', { path: { id: 'twelve' } })
  // @ts-expect-error: a body that is not a BookingRequest (no patient, no type)
  await call('POST /booking/book', { body: { hospitalId: 1, ambulanceId: 2 } })
  // @ts-expect-error: a POST without its required body
  await call('POST /auth/login')
  // @ts-expect-error: a GET takes no body
  await call('GET /admin/stats', { body: { page: 1 } })
  // @ts-expect-error: a query parameter the route does not have
  await call('GET /booking/history', { query: { user: 1 } })
  // @ts-expect-error: nearest needs lat and lng
  await call('GET /hospitals/nearest', { query: { limit: 3 } })
  // @ts-expect-error: a status the contract does not know
  await call('PATCH /admin/bookings/status', { query: { bookingId: 1, status: 'DONE' } })
  // @ts-expect-error: an Idempotency-Key where the contract declares none
  await call('GET /admin/stats', { headers: { 'Idempotency-Key': 'k' } })
  // @ts-expect-error: the method comes from the route, not the options
  await call('GET /admin/stats', { method: 'DELETE' })
  // @ts-expect-error: the answer is a Tracking, not a Hospital
  const hospital: Hospital = await call('GET /booking/{id}/track', { path: { id: 1 } })
  // @ts-expect-error: a 204 has no answer to read
  await call('DELETE /booking/{id}/share', { path: { id: 1 } }).then((answer) => answer.url)
  return hospital
}

describe('call: typed by the contract', () => {
  it('takes its answer from the route', () => {
    expectTypeOf<Answer<'GET /booking/{id}/track'>>().toEqualTypeOf<Tracking>()
    expectTypeOf<Answer<'POST /booking/book'>>().toEqualTypeOf<Booking>()
    expectTypeOf<Answer<'GET /booking/history'>>().toEqualTypeOf<Booking[]>()
    expectTypeOf<Answer<'DELETE /booking/{id}/share'>>().toEqualTypeOf<undefined>()
  })

  it('takes its body, path and query from the route', () => {
    expectTypeOf<RouteInit<'POST /booking/book'>['body']>().toEqualTypeOf<BookingRequest>()
    expectTypeOf<RouteInit<'GET /booking/{id}/track'>['path']>().toEqualTypeOf<{ id: number }>()
    expectTypeOf<'GET /booking/{id}/track'>().toExtend<Route>()
    expectTypeOf<'GET /booking/track'>().not.toExtend<Route>()
    expectTypeOf(refusedByTheContract).toBeFunction()
  })
})
