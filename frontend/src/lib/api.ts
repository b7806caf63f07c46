// The one fetch wrapper: base path, bearer token, JSON, typed errors, timeouts and
// the sign-out on any 401 of an authenticated call.
import { S } from '@/strings'
import { clearSession, getSession } from './session'

export type ErrorKind = 'http' | 'network' | 'timeout'

export class ApiError extends Error {
  readonly status: number
  readonly field?: string
  readonly kind: ErrorKind

  constructor(message: string, status: number, kind: ErrorKind, field?: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.kind = kind
    this.field = field
  }
}

type Query = Record<string, string | number | boolean | null | undefined>

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  query?: Query
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
  timeoutMs?: number
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

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const session = getSession()
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
  if (session) headers.Authorization = `Bearer ${session.token}`
  if (options.body !== undefined) headers['Content-Type'] = 'application/json'

  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15000)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout

  let response: Response
  try {
    response = await fetch(buildUrl(path, options.query), {
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
    const body = (data ?? {}) as { message?: unknown; field?: unknown }
    const message =
      typeof body.message === 'string' && body.message
        ? body.message
        : `Request failed with status code ${response.status}`
    const field = typeof body.field === 'string' ? body.field : undefined
    if (response.status === 401 && session) {
      clearSession(S.sessionExpired)
      unauthorizedHandler?.()
    }
    throw new ApiError(message, response.status, 'http', field)
  }
  return data as T
}

/** The server's message when there is one, else the screen's fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.kind === 'http' && error.status < 500 && error.message) {
    return error.message
  }
  return fallback
}
