import { render } from '@testing-library/react'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { AppProviders, createQueryClient } from '../app/providers'

/**
 * Renders routes in a memory router with a fresh query client (no retries, so an
 * error shows at once). Add stub routes for the pages a screen navigates to.
 */
export function renderRoutes(routes: RouteObject[], path: string) {
  const client = createQueryClient()
  client.setDefaultOptions({ queries: { retry: false, staleTime: 0 } })
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const view = render(
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  )
  return { ...view, router, client }
}

/** A JSON response for a mocked fetch. */
export const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
