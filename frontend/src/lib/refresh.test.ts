import { afterEach, describe, expect, it, vi } from 'vitest'
import { demoUser } from '@/test/fixtures'
import { json, routeFetch, type FetchCall } from '@/test/render'
import { api, ApiError, messageOf, onUnauthorized, parseRetryAfter, signOut } from './api'
import { needsRefresh } from './refresh'
import { getSession, getSignOutNotice, saveSession } from './session'

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString()

function signIn(expiresInSeconds: number, refreshToken = 'r1') {
  saveSession({ token: 't1', refreshToken, expiresAt: inSeconds(expiresInSeconds), role: 'USER', id: 7, user: demoUser })
}

/** The refresh route: hands out t2/r2, t3/r3, ... for the refresh token last handed out. */
function refreshRoute() {
  let n = 1
  return (call: FetchCall) => {
    if ((call.body as { refreshToken: string }).refreshToken !== `r${n}`) return json(401, { message: 'Invalid refresh token' })
    n += 1
    return json(200, { token: `t${n}`, refreshToken: `r${n}`, expiresAt: inSeconds(300), role: 'USER', id: 7, user: demoUser })
  }
}

/** A protected route that accepts only `token`. */
const acceptsOnly = (token: string) => (call: FetchCall) =>
  call.headers.Authorization === `Bearer ${token}` ? json(200, { ok: true }) : json(401, { message: 'Invalid or expired token' })

const refreshes = (calls: FetchCall[]) => calls.filter((c) => c.path === '/auth/refresh')

afterEach(() => {
  vi.unstubAllGlobals()
  onUnauthorized(null)
})

describe('silent refresh', () => {
  it('renews a token about to expire before sending, once for many concurrent requests', async () => {
    signIn(10)
    const { calls } = routeFetch({ 'POST /auth/refresh': refreshRoute(), 'GET /user/profile': acceptsOnly('t2') })
    const answers = await Promise.all([api('/user/profile'), api('/user/profile'), api('/user/profile')])
    expect(answers).toEqual([{ ok: true }, { ok: true }, { ok: true }])
    expect(refreshes(calls)).toHaveLength(1)
    expect(refreshes(calls)[0]!.headers.Authorization).toBeUndefined()
    expect(calls.filter((c) => c.path === '/user/profile').map((c) => c.headers.Authorization)).toEqual(Array(3).fill('Bearer t2'))
    // The rotated refresh token replaces the old one, with the session in localStorage.
    expect(localStorage.getItem('refreshToken')).toBe('r2')
    expect(getSession()).toMatchObject({ token: 't2', refreshToken: 'r2' })
  })

  it('does not refresh a token with time left', async () => {
    signIn(240)
    const { calls } = routeFetch({ 'POST /auth/refresh': refreshRoute(), 'GET /user/profile': acceptsOnly('t1') })
    await api('/user/profile')
    expect(refreshes(calls)).toHaveLength(0)
  })

  it('on a 401 renews once and sends the request again; concurrent 401s share the renewal', async () => {
    signIn(240) // the server revoked t1 early (say, a clock skew): only t2 is accepted
    const { calls } = routeFetch({ 'POST /auth/refresh': refreshRoute(), 'PUT /user/profile': acceptsOnly('t2') })
    const answers = await Promise.all([1, 2, 3].map(() => api('/user/profile', { method: 'PUT', body: { email: 'a@b.io' } })))
    expect(answers).toEqual(Array(3).fill({ ok: true }))
    expect(refreshes(calls)).toHaveLength(1)
    const puts = calls.filter((c) => c.method === 'PUT')
    expect(puts).toHaveLength(6)
    expect(puts.slice(3).every((c) => c.headers.Authorization === 'Bearer t2' && (c.body as { email: string }).email === 'a@b.io')).toBe(true)
  })

  it('a later 401 uses the token another request (or tab) already renewed, without a second refresh', async () => {
    signIn(240)
    const { calls } = routeFetch({ 'POST /auth/refresh': refreshRoute(), 'GET /x': acceptsOnly('t9') })
    // Another tab rotated it: localStorage holds t9/r9 while this tab still sent t1.
    localStorage.setItem('token', 't9')
    localStorage.setItem('refreshToken', 'r9')
    await expect(api('/x')).resolves.toEqual({ ok: true })
    expect(refreshes(calls)).toHaveLength(0)
  })

  it('signs out, as before, when the refresh token is refused', async () => {
    signIn(10)
    const handler = vi.fn()
    onUnauthorized(handler)
    const { calls } = routeFetch({ 'POST /auth/refresh': () => json(401, { message: 'Refresh token revoked' }) })
    const errors = await Promise.all([api('/user/profile').catch((e) => e), api('/user/profile').catch((e) => e)])
    expect(errors.every((e) => e instanceof ApiError && e.status === 401)).toBe(true)
    expect(refreshes(calls)).toHaveLength(1)
    expect(calls.filter((c) => c.path === '/user/profile')).toHaveLength(0)
    expect(handler).toHaveBeenCalled()
    expect(getSession()).toBeNull()
    expect(localStorage.getItem('refreshToken')).toBeNull()
    expect(getSignOutNotice()).toBe('Your session has expired. Please sign in again.')
  })

  it('signs out when the renewed token is refused too (no loop)', async () => {
    signIn(240)
    const handler = vi.fn()
    onUnauthorized(handler)
    const { calls } = routeFetch({ 'POST /auth/refresh': refreshRoute(), 'GET /x': () => json(401, { message: 'User no longer exists' }) })
    await expect(api('/x')).rejects.toMatchObject({ status: 401 })
    expect(refreshes(calls)).toHaveLength(1)
    expect(calls.filter((c) => c.path === '/x')).toHaveLength(2)
    expect(handler).toHaveBeenCalledOnce()
    expect(getSession()).toBeNull()
  })

  it('keeps the session when the refresh cannot reach the server', async () => {
    signIn(240)
    const handler = vi.fn()
    onUnauthorized(handler)
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      if (url === '/api/auth/refresh') throw new TypeError('Failed to fetch')
      return json(401, { message: 'Invalid or expired token' })
    }))
    await expect(api('/x')).rejects.toMatchObject({ kind: 'network' })
    expect(handler).not.toHaveBeenCalled()
    expect(getSession()?.refreshToken).toBe('r1')
  })

  it('a session without a refresh token (an older server) signs out on a 401 as before', async () => {
    saveSession({ token: 't1', role: 'USER', id: 7, user: demoUser })
    const { calls } = routeFetch({ 'GET /x': () => json(401, { message: 'Invalid or expired token' }) })
    await expect(api('/x')).rejects.toMatchObject({ status: 401 })
    expect(refreshes(calls)).toHaveLength(0)
    expect(getSession()).toBeNull()
  })

  it('needsRefresh: within 30 s of the expiry, and only with a refresh token', () => {
    const now = Date.parse('2026-03-01T10:00:00Z')
    const session = { token: 't', user: demoUser, refreshToken: 'r', expiresAt: '2026-03-01T10:00:31Z' }
    expect(needsRefresh(session, now)).toBe(false)
    expect(needsRefresh({ ...session, expiresAt: '2026-03-01T10:00:30Z' }, now)).toBe(true)
    expect(needsRefresh({ ...session, expiresAt: '2026-03-01T09:00:00Z' }, now)).toBe(true)
    expect(needsRefresh({ ...session, refreshToken: undefined, expiresAt: '2026-03-01T09:00:00Z' }, now)).toBe(false)
    expect(needsRefresh(null, now)).toBe(false)
  })
})

describe('signOut', () => {
  it('clears the session at once and revokes the refresh token on the server', async () => {
    signIn(240)
    const { calls } = routeFetch({ 'POST /auth/logout': () => new Response(null, { status: 204 }) })
    signOut()
    expect(getSession()).toBeNull()
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/auth/logout', body: { refreshToken: 'r1' } })
    expect(calls[0]!.headers.Authorization).toBeUndefined()
  })

  it('signs out here even when the server cannot be reached', async () => {
    signIn(240)
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')))
    signOut()
    expect(getSession()).toBeNull()
  })
})

describe('429', () => {
  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-03-01T10:00:00Z')
    expect(parseRetryAfter('30', now)).toBe(30)
    expect(parseRetryAfter('Sun, 01 Mar 2026 10:02:00 GMT', now)).toBe(120)
    expect(parseRetryAfter(null, now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
  })

  it('says how long to wait', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{"message":"Too many requests"}', { status: 429, headers: { 'Retry-After': '90' } })))
    const err = await api('/booking/book', { method: 'POST', body: {} }).catch((e) => e)
    expect(err).toMatchObject({ status: 429, retryAfter: 90 })
    expect(messageOf(err, 'Booking failed')).toBe('Too many requests. Please wait 2 minutes and try again.')
    expect(messageOf(new ApiError('Slow down', 429, 'http'), 'x')).toBe('Too many requests. Please wait a moment and try again.')
  })
})
