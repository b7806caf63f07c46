// The one fetch wrapper: base path, bearer token (renewed silently, see refresh.ts),
// JSON, typed errors, timeouts, and the sign-out when a session cannot be renewed.
import { S } from '@/strings'
import type { Answer, Route, RouteArgs } from './contract'
import { formatWait } from './format'
import { dropBrowserSubscription, takeEndpoint } from './push/device'
import { needsRefresh, refreshSession } from './refresh'
import { clearSession, getSession, type Session } from './session'

export type ErrorKind = 'http' | 'network' | 'timeout'

export class ApiError extends Error {
  readonly status: number
  readonly field?: string
  readonly kind: ErrorKind
  /** A 429's Retry-After, in seconds, when the server gave one. */
  readonly retryAfter?: number
  /** The error's JSON body as sent (e.g. a 409's `hospitals`), when there was one. */
  readonly body?: unknown

  constructor(message: string, status: number, kind: ErrorKind, field?: string, retryAfter?: number, body?: unknown) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.kind = kind
    this.field = field
    this.retryAfter = retryAfter
    this.body = body
  }

  /** The body's stable `code` ("invalid", "ambulanceTaken"...), when the server sent one. */
  get code(): string | undefined {
    const code = (this.body as { code?: unknown } | undefined)?.code
    return typeof code === 'string' ? code : undefined
  }
}

/**
 * No answer came (network trouble, a timeout) or a gateway gave up (502–504): the request
 * may or may not have been carried out, so only a retry with its Idempotency-Key is safe.
 */
export const outcomeUnknown = (error: unknown): boolean =>
  error instanceof ApiError && (error.kind !== 'http' || [502, 503, 504].includes(error.status))

/** Retry-After as seconds from `now`: a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : undefined
}

type Query = Record<string, string | number | boolean | null | undefined>

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  query?: Query
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
  timeoutMs?: number
  /** Send no token, whoever is signed in (e.g. logout, which carries its refresh token). */
  anonymous?: boolean
  /** Answer the body as text, not JSON (a CSV download; see callText). */
  text?: boolean
}

let unauthorizedHandler: (() => void) | null = null

/** Called after a 401 to a call that carried a token (the session is already cleared). */
export function onUnauthorized(handler: (() => void) | null) {
  unauthorizedHandler = handler
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value))
  }
  const qs = params.toString()
  return `/api${path}${qs ? `?${qs}` : ''}`
}

const sessionEnded = () => {
  unauthorizedHandler?.()
  return new ApiError(S.sessionExpired, 401, 'http')
}

/**
 * The wrapper, untyped: the caller names the answer's type. Features call `call()`,
 * which takes it from the contract (lint refuses `api` outside lib/ and tests).
 */
export function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return request<T>(path, options, false)
}

/**
 * A route of the contract, typed by it (contract.ts): `call('GET /booking/{id}/track',
 * { path: { id } })`. The route picks the path parameters, query, body and headers it
 * takes and the answer it gives, so a path, a body or an answer the contract does not
 * have is a type error. It goes through `api()`: the token, renewals, errors and
 * timeouts are the same.
 */
export function call<R extends Route>(route: R, ...[init]: RouteArgs<R>): Promise<Answer<R>> {
  const { path, options } = routed(route, init)
  return request<Answer<R>>(path, options, false)
}

/**
 * A route's answer in another media type the contract gives it, as text: the
 * response-time report's CSV is `callText('GET /admin/reports/response-times', 'text/csv',
 * { query })`. Errors are the same JSON errors as `call()`'s.
 */
export function callText<R extends Route>(route: R, accept: string, ...[init]: RouteArgs<R>): Promise<string> {
  const { path, options } = routed(route, init)
  return request<string>(path, { ...options, headers: { ...options.headers, Accept: accept }, text: true }, false)
}

function routed(route: Route, init: unknown): { path: string; options: RequestOptions } {
  const space = route.indexOf(' ')
  const method = route.slice(0, space) as NonNullable<RequestOptions['method']>
  const { path: values, ...options } = (init ?? {}) as RequestOptions & { path?: Record<string, string | number> }
  const path = route.slice(space + 1).replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values?.[name]
    if (value === undefined) throw new Error(`${route}: no value for {${name}}`)
    return encodeURIComponent(String(value))
  })
  return { path, options: { ...options, method } }
}

async function request<T>(path: string, options: RequestOptions, retried: boolean): Promise<T> {
  let session = options.anonymous ? null : getSession()
  // Shortly before the access token expires, renew it first (no request goes out to fail).
  if (session && needsRefresh(session)) {
    const outcome = await refreshSession(session, S.sessionExpired)
    if (outcome.kind === 'refused') throw sessionEnded()
    // transient: the token we have may still be good for a few seconds.
    if (outcome.kind === 'fresh') session = outcome.session
  }

  const response = await send(path, options, session)
  if (response.status === 204) return undefined as T
  const text = await response.text()
  let data: unknown = undefined
  if (text) {
    try {
      data = JSON.parse(text)
    } catch {
      data = undefined
    }
  }
  if (!response.ok) {
    if (response.status === 401 && session) {
      // Renewed once, then the request again; a session that cannot be renewed ends.
      if (session.refreshToken && !retried) {
        const outcome = await refreshSession(session, S.sessionExpired)
        if (outcome.kind === 'fresh') return request<T>(path, options, true)
        if (outcome.kind === 'transient') throw new ApiError('Network Error', 0, 'network')
        throw sessionEnded()
      }
      clearSession(S.sessionExpired)
      throw sessionEnded()
    }
    const body = (data ?? {}) as { message?: unknown; field?: unknown }
    const message =
      typeof body.message === 'string' && body.message
        ? body.message
        : `Request failed with status code ${response.status}`
    const field = typeof body.field === 'string' ? body.field : undefined
    const retryAfter = response.status === 429 ? parseRetryAfter(response.headers.get('Retry-After')) : undefined
    throw new ApiError(message, response.status, 'http', field, retryAfter, data)
  }
  if (options.text) return text as T
  return data as T
}

async function send(path: string, options: RequestOptions, session: Session | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
  if (session) headers.Authorization = `Bearer ${session.token}`
  if (options.body !== undefined) headers['Content-Type'] = 'application/json'

  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15000)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    })
  } catch (err) {
    if (timeout.aborted) throw new ApiError('Request timed out', 0, 'timeout')
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw new ApiError('Network Error', 0, 'network')
  }
}

/**
 * Signs out here at once, then ends the session on the server too (its refresh token
 * is revoked; the access token dies within 5 minutes). A failed call changes nothing here.
 * This device's push subscription goes too (docs/requirements.md, "Push"): the server forgets it, with the
 * token of the session that made it, and the browser drops it, so the next person to
 * sign in on this phone is not told of the last one's jobs. A crew's ambulance goes OFFLINE.
 */
export function signOut() {
  const session = getSession()
  const refreshToken = session?.refreshToken
  const endpoint = takeEndpoint()
  clearSession()
  // A crew signing out: its ambulance is OFFLINE at once, not 2 minutes later (decision 0020).
  if (session?.user?.role === 'CREW') {
    const headers = { Authorization: `Bearer ${session.token}` }
    call('DELETE /crew/presence', { headers, anonymous: true }).catch(() => undefined)
  }
  if (endpoint) {
    dropBrowserSubscription()
    if (session) {
      const headers = { Authorization: `Bearer ${session.token}` }
      call('DELETE /push/subscription', { body: { endpoint }, headers, anonymous: true }).catch(() => undefined)
    }
  }
  if (refreshToken) {
    call('POST /auth/logout', { body: { refreshToken }, anonymous: true }).catch(() => undefined)
  }
}

/** The server's message when there is one, else the screen's fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 429) return S.tooManyRequests(formatWait(error.retryAfter))
  if (error instanceof ApiError && error.kind === 'http' && error.status < 500 && error.message) {
    return translatedMessage(error) ?? error.message
  }
  return fallback
}

/**
 * The server's English message said in the chosen language, from its `code` (and `field`
 * for `invalid`); undefined in English (the server's own words are shown) or for a code
 * we do not know (then the server's English is the fallback).
 */
export function translatedMessage(error: ApiError): string | undefined {
  if (S.locale === 'en' || !error.code) return undefined
  const E = S.errors
  if (error.code === 'invalid') {
    // `field` is the API's path ("patient.age"): its own label, else its last part's.
    const fields = E.fields as Record<string, string>
    const label = error.field ? (fields[error.field] ?? fields[error.field.split('.').pop()!]) : undefined
    return label ? E.invalid(label) : E.invalidNoField
  }
  const text = (E as unknown as Record<string, unknown>)[error.code]
  return typeof text === 'string' ? text : undefined
}
