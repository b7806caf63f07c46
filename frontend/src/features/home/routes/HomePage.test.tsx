import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import type { User } from '@/lib/types'
import { json, renderRoutes } from '@/test/render'
import { HomePage } from './HomePage'

const user: User = { id: 2, username: 'demo', email: 'd@x.io', phone: '', latitude: 1, longitude: 2, role: 'USER', createdAt: '' }
const ok: Record<string, Response | (() => Response)> = {
  '/api/hospitals/all': () => json(200, { content: [], totalPages: 6, totalElements: 52, page: 0, size: 10 }),
  '/api/ambulances/counts': () => json(200, { total: 165, available: 118, onDuty: 25, maintenance: 22 }),
  '/api/ambulances/available/all': () =>
    json(200, [{ id: 1, number: 'PB-03-1234', status: 'AVAILABLE', type: 'ALS', hospitalId: 1, hospital: { id: 1, name: 'Civil Hospital', address: '' } }]),
}

function serve(answer: (path: string) => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (url: string) => answer(url.split('?')[0]!))
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

/** The live line, whose figures are in their own elements. */
const liveLine = (pattern: RegExp) =>
  screen.findByText((_, el) => el?.tagName === 'P' && pattern.test(el.textContent ?? ''))

const renderHome = () => renderRoutes([{ path: '/', element: <HomePage /> }], '/')

afterEach(() => vi.unstubAllGlobals())

describe('HomePage', () => {
  it('shows live figures, the available ambulances and Get Started when signed out', async () => {
    serve((path) => (ok[path] as () => Response)())
    renderHome()
    expect(await screen.findByText('Civil Hospital')).toBeInTheDocument()
    expect(await liveLine(/^118 of 165 ambulances are currently available$/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register')
    expect(screen.getByText('Please log in to view complete dashboard data.')).toBeInTheDocument()
    expect(screen.getByText('8 min')).toBeInTheDocument()
    expect(screen.getByText('98%')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Call Emergency (911)' })).toHaveAttribute('href', 'tel:911')
    expect(screen.queryByRole('link', { name: 'Send an ambulance' })).not.toBeInTheDocument()
  })

  it('gives a signed-in user the large "Send an ambulance" first, then the call button (tap 1 of 2)', () => {
    saveSession({ token: 't', user, role: 'USER', id: 2 })
    serve((path) => (ok[path] as () => Response)())
    renderHome()
    const send = screen.getByRole('link', { name: 'Send an ambulance' })
    expect(send).toHaveAttribute('href', '/emergency')
    expect(send.nextElementSibling).toBe(screen.getByRole('link', { name: 'Call Emergency (911)' }))
  })

  it('links Book Ambulance to /booking when signed in, without the sign-in banner', async () => {
    saveSession({ token: 't', user, role: 'USER', id: 2 })
    serve((path) => (ok[path] as () => Response)())
    renderHome()
    expect(screen.getByRole('link', { name: 'Book Ambulance' })).toHaveAttribute('href', '/booking')
    expect(screen.queryByText('Please log in to view complete dashboard data.')).not.toBeInTheDocument()
    expect(await screen.findByText('Civil Hospital')).toBeInTheDocument()
  })

  it('signed out and unreachable: the public-data message with zeroed figures, then Retry', async () => {
    const fetchMock = serve(() => Promise.reject(new TypeError('Failed to fetch')))
    renderHome()
    expect(await screen.findByText('Unable to load public data. Please try again later.')).toBeInTheDocument()
    expect(await liveLine(/^0 of 0 ambulances are currently available$/)).toBeInTheDocument()
    fetchMock.mockImplementation(async (url: string) => (ok[url.split('?')[0]!] as () => Response)())
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await liveLine(/^118 of 165 /)).toBeInTheDocument()
    expect(screen.queryByText('Unable to load public data. Please try again later.')).not.toBeInTheDocument()
  })

  it.each([
    [() => json(500, { message: 'x' }), 'Server error. Please try again later.'],
    [() => json(403, { message: 'x' }), 'Access denied. Some data may not be available.'],
    [() => Promise.reject(new TypeError('Failed to fetch')), 'Unable to connect to server. Please check your internet connection.'],
    [() => json(404, { message: 'x' }), 'Failed to load dashboard data. Using default values.'],
  ])('signed in, failure %# says what kind of failure it was', async (fail, message) => {
    saveSession({ token: 't', user, role: 'USER', id: 2 })
    serve((path) => (path === '/api/ambulances/counts' ? fail() : (ok[path] as () => Response)()))
    renderHome()
    expect(await screen.findByText(message)).toBeInTheDocument()
  })

  it('has a clock that ticks every second', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'Date'] })
    try {
      serve((path) => (ok[path] as () => Response)())
      renderHome()
      const clock = document.querySelector('time')!
      const before = clock.getAttribute('datetime')
      await act(() => vi.advanceTimersByTimeAsync(1000))
      expect(clock.getAttribute('datetime')).not.toBe(before)
    } finally {
      vi.useRealTimers()
    }
  })
})
