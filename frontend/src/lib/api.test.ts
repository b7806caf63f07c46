import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError, buildUrl, messageOf, onUnauthorized } from './api'
import { getSession, getSignOutNotice, saveSession } from './session'

function respond(status: number, body?: unknown) {
  return vi.fn().mockResolvedValue(
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    }),
  )
}

function signIn() {
  saveSession({ token: 'tok', role: 'USER', id: 1, user: { id: 1, username: 'u', email: 'u@x.io', phone: '', latitude: 1, longitude: 2, role: 'USER', createdAt: '' } })
}

afterEach(() => {
  vi.unstubAllGlobals()
  onUnauthorized(null)
})

describe('api', () => {
  it('sends the bearer token and JSON, and returns the parsed body', async () => {
    signIn()
    const fetchMock = respond(200, { ok: true })
    vi.stubGlobal('fetch', fetchMock)
    await expect(api('/user/profile', { method: 'PUT', body: { a: 1 }, query: { userId: 1, x: undefined } })).resolves.toEqual({ ok: true })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/user/profile?userId=1')
    expect(init.headers.Authorization).toBe('Bearer tok')
    expect(init.headers['Content-Type']).toBe('application/json')
    expect(init.body).toBe('{"a":1}')
  })

  it('turns an error body into an ApiError with message and field', async () => {
    vi.stubGlobal('fetch', respond(400, { message: 'Invalid latitude', field: 'latitude' }))
    const err = await api('/x').catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 400, message: 'Invalid latitude', field: 'latitude', kind: 'http' })
  })

  it('signs out and calls the handler on a 401 of an authenticated call', async () => {
    signIn()
    const handler = vi.fn()
    onUnauthorized(handler)
    vi.stubGlobal('fetch', respond(401, { message: 'Invalid or expired token' }))
    await expect(api('/user/profile')).rejects.toMatchObject({ status: 401 })
    expect(handler).toHaveBeenCalledOnce()
    expect(getSession()).toBeNull()
    expect(getSignOutNotice()).toBe('Your session has expired. Please sign in again.')
  })

  it('does not call the sign-out handler for a signed-out 401 (a failed login)', async () => {
    const handler = vi.fn()
    onUnauthorized(handler)
    vi.stubGlobal('fetch', respond(401, { message: 'Invalid username or password' }))
    await expect(api('/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 401 })
    expect(handler).not.toHaveBeenCalled()
  })

  it('reports a network failure as kind "network"', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')))
    await expect(api('/x')).rejects.toMatchObject({ kind: 'network', status: 0, message: 'Network Error' })
  })

  it('returns undefined for 204', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(null, { status: 204 })))
    await expect(api('/x', { method: 'DELETE' })).resolves.toBeUndefined()
  })
})

describe('messageOf', () => {
  it('prefers the server message for client errors and the fallback otherwise', () => {
    expect(messageOf(new ApiError('Email is already registered', 409, 'http'), 'Registration failed')).toBe('Email is already registered')
    expect(messageOf(new ApiError('Internal server error', 500, 'http'), 'Registration failed')).toBe('Registration failed')
    expect(messageOf(new ApiError('Network Error', 0, 'network'), 'Registration failed')).toBe('Registration failed')
    expect(messageOf(new Error('x'), 'Registration failed')).toBe('Registration failed')
  })
})

describe('buildUrl', () => {
  it('skips empty parameters', () => {
    expect(buildUrl('/hospitals/nearest', { lat: 1.5, lng: -2, limit: null, q: '' })).toBe('/api/hospitals/nearest?lat=1.5&lng=-2')
  })
})
