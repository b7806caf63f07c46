import { onlineManager } from '@tanstack/react-query'
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { api } from '@/lib/api'
import { saveSession } from '@/lib/session'
import type { User } from '@/lib/types'
import { json, renderRoutes } from '@/test/render'
import { LoginPage } from '@/features/auth/routes/LoginPage'
import { RequireAdmin, RequireAuth, RequireCrew, SendCrewHome } from './guards'
import { Layout } from './Layout'

const crewUser = { id: 50, username: 'crew1', email: 'crew1@example.com', phone: '', latitude: null, longitude: null, role: 'CREW', createdAt: '' } as unknown as User
const user: User = { id: 2, username: 'demo', email: 'demo@example.com', phone: '', latitude: 1, longitude: 2, role: 'USER', createdAt: '' }

function shell(path: string) {
  return renderRoutes(
    [
      {
        element: <Layout />,
        children: [
          { path: '/', element: <SendCrewHome><h1>Home</h1></SendCrewHome> },
          { path: '/about', element: <h1>About</h1> },
          { path: '/login', element: <LoginPage /> },
          { path: '/profile', element: <RequireAuth crewToo><h1>Profile</h1></RequireAuth> },
          { path: '/history', element: <RequireAuth><h1>History</h1></RequireAuth> },
          { path: '/admin', element: <RequireAdmin><h1>Admin area</h1></RequireAdmin> },
          { path: '/crew', element: <RequireCrew><h1>Crew screen</h1></RequireCrew> },
        ],
      },
    ],
    path,
  )
}

const mainNav = () => within(screen.getByRole('navigation', { name: 'Main' }))

afterEach(() => vi.unstubAllGlobals())

describe('top bar', () => {
  it('offers About, Login and Register when signed out, and the emergency number always', () => {
    shell('/')
    expect(mainNav().getAllByRole('link').map((l) => l.textContent)).toEqual(['About', 'Login', 'Register'])
    expect(screen.getByRole('link', { name: 'Emergency 911' })).toHaveAttribute('href', 'tel:911')
    expect(screen.queryByRole('button', { name: /account menu/ })).not.toBeInTheDocument()
  })

  it('offers History, Book Ambulance and Hospitals to a user, not Admin', () => {
    saveSession({ token: 't', user, role: 'USER', id: 2 })
    shell('/')
    expect(mainNav().getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual([
      '/about',
      '/history',
      '/book-ambulance',
      '/hospitals/nearest',
    ])
  })

  it('offers Admin to an admin (role compared case-insensitively), not the user links', () => {
    saveSession({ token: 't', user: { ...user, role: 'admin' as never }, role: 'ADMIN', id: 2 })
    shell('/')
    expect(mainNav().getAllByRole('link').map((l) => l.textContent)).toEqual(['About', 'Admin'])
    expect(screen.queryByRole('link', { name: 'Send an ambulance' })).not.toBeInTheDocument()
  })

  it('says so when offline, with the call button, on every screen', () => {
    shell('/about')
    expect(screen.queryByText(/You are offline/)).not.toBeInTheDocument()
    act(() => onlineManager.setOnline(false))
    try {
      const banner = screen.getByText('You are offline. The app still opens, and calling 911 works without the internet.').closest('[role="status"]')!
      expect(within(banner as HTMLElement).getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911')
    } finally {
      act(() => onlineManager.setOnline(true))
    }
    expect(screen.queryByText(/You are offline/)).not.toBeInTheDocument()
  })

  it('opened with no connection (no offline event yet): the banner shows all the same', () => {
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true })
    try {
      shell('/about')
      expect(screen.getByText(/^You are offline\./)).toBeInTheDocument()
    } finally {
      delete (navigator as unknown as Record<string, unknown>).onLine
    }
    expect(navigator.onLine).toBe(true)
  })

  it('offers a signed-in user "Send an ambulance" beside the call button, not to others', () => {
    shell('/')
    expect(screen.queryByRole('link', { name: 'Send an ambulance' })).not.toBeInTheDocument()
    act(() => saveSession({ token: 't', user, role: 'USER', id: 2 }))
    const call = screen.getByRole('link', { name: 'Emergency 911' })
    const send = screen.getByRole('link', { name: 'Send an ambulance' })
    expect(send).toHaveAttribute('href', '/emergency')
    // Right after the call button.
    expect(call.nextElementSibling).toBe(send)
  })

  it('offers a crew only Crew, Profile, Logout and the emergency call', async () => {
    saveSession({ token: 't', user: crewUser, role: 'CREW', id: 50 })
    shell('/crew')
    expect(mainNav().getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual(['/crew'])
    expect(screen.getByRole('link', { name: 'Emergency 911' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'AmbuCare' })).toHaveAttribute('href', '/crew')
    await userEvent.click(screen.getByRole('button', { name: /account menu/ }))
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Profile', 'Logout'])
    const footer = within(screen.getByRole('navigation', { name: 'Footer' }))
    expect(footer.getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual(['/crew', '/profile', '/privacy'])
  })

  // Named by its visible text plus a hidden ', account menu' (no aria-label: WCAG 2.5.3).
  // jsdom lays every span out as a block, so it adds a space before the comma that
  // browsers do not.
  const accountMenu = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ?, account menu$`)

  it('names the user by username, else email, else "User"', () => {
    saveSession({ token: 't', user: { ...user, username: '' }, role: 'USER', id: 2 })
    const view = shell('/')
    expect(screen.getByRole('button', { name: accountMenu('demo@example.com') })).not.toHaveAttribute('aria-label')
    view.unmount()
    saveSession({ token: 't', user: { ...user, username: '', email: '' }, role: 'USER', id: 2 })
    shell('/')
    expect(screen.getByRole('button', { name: accountMenu('User') })).toBeInTheDocument()
  })

  it('user menu: opens on the first item, moves with arrows, Escape closes it, Logout signs out', async () => {
    saveSession({ token: 't', user, role: 'USER', id: 2 })
    const { router } = shell('/')
    const button = screen.getByRole('button', { name: accountMenu('demo') })
    await userEvent.click(button)
    expect(screen.getByRole('menuitem', { name: 'Profile' })).toHaveFocus()
    await userEvent.keyboard('{ArrowDown}')
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('menu')).not.toBeInTheDocument()
    expect(button).toHaveFocus()
    await userEvent.click(button)
    await userEvent.click(screen.getByRole('menuitem', { name: 'Logout' }))
    expect(router.state.location.pathname).toBe('/login')
    expect(localStorage.getItem('token')).toBeNull()
  })

  it('has a mobile menu behind a toggle', async () => {
    saveSession({ token: 't', user, role: 'USER', id: 2 })
    shell('/')
    const toggle = screen.getByRole('button', { name: 'Open menu' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(toggle)
    const menu = within(screen.getByRole('navigation', { name: 'Mobile' }))
    expect(menu.getByRole('link', { name: 'Profile' })).toBeInTheDocument()
    expect(menu.getByRole('button', { name: 'Logout' })).toBeInTheDocument()
    await userEvent.click(menu.getByRole('link', { name: 'About' }))
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument()
  })

  it('links the footer to about, booking, nearest hospitals, history, profile and privacy', () => {
    shell('/')
    const footer = within(screen.getByRole('navigation', { name: 'Footer' }))
    expect(footer.getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual([
      '/about',
      '/booking',
      '/hospitals/nearest',
      '/history',
      '/profile',
      '/privacy',
    ])
  })
})

describe('guards', () => {
  it('sends a signed-out visitor to /login', () => {
    const { router } = shell('/profile')
    expect(router.state.location.pathname).toBe('/login')
  })

  it('sends a signed-in user away from admin screens to /', () => {
    saveSession({ token: 't', user, role: 'USER', id: 2 })
    const { router } = shell('/admin')
    expect(router.state.location.pathname).toBe('/')
  })

  it.each([
    ['/history', '/crew'],
    ['/admin', '/crew'],
    ['/', '/crew'],
    ['/crew', '/crew'],
    ['/profile', '/profile'],
  ])('sends a crew from %s to %s', (from, to) => {
    saveSession({ token: 't', user: crewUser, role: 'CREW', id: 50 })
    const { router } = shell(from)
    expect(router.state.location.pathname).toBe(to)
  })

  it.each([['USER'], ['ADMIN']] as const)('sends a %s away from /crew to /', (role) => {
    saveSession({ token: 't', user: { ...user, role }, role, id: 2 })
    const { router } = shell('/crew')
    expect(router.state.location.pathname).toBe('/')
  })

  it('lets an admin in', () => {
    saveSession({ token: 't', user: { ...user, role: 'ADMIN' }, role: 'ADMIN', id: 2 })
    shell('/admin')
    expect(screen.getByRole('heading', { name: 'Admin area' })).toBeInTheDocument()
  })
})

describe('an expired session', () => {
  it('signs out on a 401 and shows the reason on the sign-in screen', async () => {
    saveSession({ token: 't', user, role: 'USER', id: 2 })
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(401, { message: 'Invalid or expired token' })))
    const { router } = shell('/')
    await expect(api('/user/profile')).rejects.toMatchObject({ status: 401 })
    expect(await screen.findByText('Your session has expired. Please sign in again.')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/login')
    expect(mainNav().getByRole('link', { name: 'Login' })).toBeInTheDocument()
  })
})
