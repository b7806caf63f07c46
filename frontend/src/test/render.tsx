import { vi } from 'vitest'
import { render, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { AppProviders, createQueryClient } from '@/app/providers'

/**
 * Renders routes in a memory router with a fresh query client (no retries, so an
 * error shows at once). Add stub routes for the pages a screen navigates to.
 */
export function renderRoutes(routes: RouteObject[], path: string | { pathname: string; state?: unknown }) {
  const client = testQueryClient()
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const view = render(
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  )
  return { ...view, router, client }
}

/** Runs hooks with a fresh query client (as renderRoutes does), outside any screen. */
export function renderHookWithClient<T>(hook: () => T) {
  const client = testQueryClient()
  const wrapper = ({ children }: { children: ReactNode }) => <AppProviders client={client}>{children}</AppProviders>
  return { ...renderHook(hook, { wrapper }), client }
}

function testQueryClient() {
  const client = createQueryClient()
  client.setDefaultOptions({ queries: { retry: false, staleTime: 0 } })
  return client
}

/** A JSON response for a mocked fetch. */
export const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })

export interface FetchCall {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string>
  body: unknown
}

/**
 * A fetch stub that answers by "METHOD /path" (without /api and the query string);
 * unknown routes get a 404. Returns the mock and the list of calls made.
 */
export function routeFetch(routes: Record<string, (call: FetchCall) => Response | Promise<Response>>) {
  const calls: FetchCall[] = []
  const mock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const u = new URL(url, 'http://test')
    const call: FetchCall = {
      method: init.method ?? 'GET',
      path: u.pathname.replace(/^\/api/, ''),
      query: u.searchParams,
      headers: (init.headers ?? {}) as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    }
    calls.push(call)
    const handler = routes[`${call.method} ${call.path}`]
    return handler ? handler(call) : json(404, { message: `no stub for ${call.method} ${call.path}` })
  })
  vi.stubGlobal('fetch', mock)
  return { mock, calls }
}

/**
 * How long a test waits for a lazily loaded map: its first import (Leaflet and its
 * transform) takes seconds on a busy CI machine.
 */
export const LAZY_MAP = { timeout: 10_000 }
