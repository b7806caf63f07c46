import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api'
import { getSession } from '@/lib/session'
import { LoginPage, loginErrorMessage } from './LoginPage'

function renderLogin() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/profile', element: <p>Profile page</p> },
      { path: '/crew', element: <p>Crew page</p> },
    ],
    { initialEntries: ['/login'] },
  )
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

afterEach(() => vi.unstubAllGlobals())

describe('LoginPage', () => {
  it('requires both fields before calling the server', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    renderLogin()
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your username and password.')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('shows and hides the password', async () => {
    renderLogin()
    const input = screen.getByLabelText('Password')
    expect(input).toHaveAttribute('type', 'password')
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }))
    expect(input).toHaveAttribute('type', 'text')
    const hide = screen.getByRole('button', { name: 'Hide password' })
    expect(hide).not.toHaveAttribute('aria-pressed')
    await userEvent.click(hide)
    expect(input).toHaveAttribute('type', 'password')
  })

  it('stores the session and goes to /profile on success', async () => {
    const user = { id: 2, username: 'demo', email: 'd@x.io', phone: '', latitude: 1, longitude: 2, role: 'USER', createdAt: '' }
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ token: 't', user, role: 'USER', id: 2 }), { status: 200 })))
    renderLogin()
    await userEvent.type(screen.getByLabelText('Username'), 'demo')
    await userEvent.type(screen.getByLabelText('Password'), 'demo12345')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByText('Profile page')).toBeInTheDocument()
    expect(getSession()?.token).toBe('t')
  })

  it('keeps the refresh token and expiry with the session; a crew lands on /crew', async () => {
    const user = { id: 9, username: 'crew1', email: 'c@x.io', phone: '', latitude: null, longitude: null, role: 'CREW', createdAt: '' }
    const auth = { token: 't', refreshToken: 'r', expiresAt: '2026-03-01T10:05:00Z', user, role: 'CREW', id: 9 }
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify(auth), { status: 200 })))
    renderLogin()
    await userEvent.type(screen.getByLabelText('Username'), 'crew1')
    await userEvent.type(screen.getByLabelText('Password'), 'crew12345')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByText('Crew page')).toBeInTheDocument()
    expect(getSession()).toMatchObject({ token: 't', refreshToken: 'r', expiresAt: '2026-03-01T10:05:00Z' })
  })

  it('says how long to wait when sign-in is throttled', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{"message":"Too many attempts"}', { status: 429, headers: { 'Retry-After': '45' } })))
    renderLogin()
    await userEvent.type(screen.getByLabelText('Username'), 'demo')
    await userEvent.type(screen.getByLabelText('Password'), 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Please wait 45 seconds and try again.')
  })

  it('says "Invalid username or password" on a 401', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ message: 'Invalid username or password' }), { status: 401 })))
    renderLogin()
    await userEvent.type(screen.getByLabelText('Username'), 'demo')
    await userEvent.type(screen.getByLabelText('Password'), 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password')
  })
})

describe('loginErrorMessage', () => {
  it('uses the server message for a throttled login, else "Login failed"', () => {
    expect(loginErrorMessage(new ApiError('Too many failed login attempts. Please try again later.', 429, 'http'))).toMatch(/Too many/)
    expect(loginErrorMessage(new ApiError('Network Error', 0, 'network'))).toBe('Login failed')
  })
})
