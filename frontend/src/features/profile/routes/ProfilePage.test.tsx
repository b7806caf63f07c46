import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { getSession, saveSession } from '@/lib/session'
import type { User } from '@/lib/types'
import { adminUser as admin, demoUser as demo } from '@/test/fixtures'
import { json, renderRoutes } from '@/test/render'
import ProfilePage from './ProfilePage'

/** Signs `user` in and answers GET with it and PUT with the body merged into it. */
function server(user: User, put: (body: Record<string, unknown>) => Response = (b) => json(200, { ...user, ...b })) {
  saveSession({ token: 't', user, role: user.role, id: user.id })
  const fetchMock = vi.fn(async (_url: string, init: RequestInit) =>
    init.method === 'PUT' ? put(JSON.parse(String(init.body))) : json(200, user),
  )
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

const renderProfile = () => renderRoutes([{ path: '/profile', element: <ProfilePage /> }], '/profile')
const putBody = (fetchMock: ReturnType<typeof server>) => {
  const call = fetchMock.mock.calls.find(([, init]) => init.method === 'PUT')
  return JSON.parse(String(call![1].body))
}

afterEach(() => vi.unstubAllGlobals())

describe('ProfilePage', () => {
  it("shows a user's details with 4-decimal coordinates and member-since", async () => {
    const fetchMock = server(demo)
    renderProfile()
    expect(await screen.findByText('demo@example.com')).toBeInTheDocument()
    expect(screen.getByText('30.6700')).toBeInTheDocument()
    expect(screen.getByText('74.3300')).toBeInTheDocument()
    expect(screen.getByText('Member since')).toBeInTheDocument()
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/user/profile?userId=7')
  })

  it('sends email and location, no password when none is typed, and says it worked', async () => {
    const fetchMock = server(demo)
    renderProfile()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    await userEvent.clear(screen.getByLabelText('Latitude'))
    await userEvent.type(screen.getByLabelText('Latitude'), '31.5')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument()
    expect(putBody(fetchMock)).toEqual({ email: 'demo@example.com', latitude: 31.5, longitude: 74.33 })
    expect(screen.getByText('31.5000')).toBeInTheDocument()
    expect(getSession()?.user.latitude).toBe(31.5)
  })

  it('asks for the current password only once a new one is typed, and sends both', async () => {
    const fetchMock = server(demo)
    renderProfile()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('New password (optional)'), 'another-secret')
    await userEvent.type(screen.getByLabelText('Current password'), 'old-secret')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await screen.findByText('Profile updated successfully!')
    expect(putBody(fetchMock)).toMatchObject({ password: 'another-secret', currentPassword: 'old-secret' })
  })

  it('hides the current password again when the new one is cleared, and sends neither', async () => {
    const fetchMock = server(demo)
    renderProfile()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    await userEvent.type(screen.getByLabelText('New password (optional)'), 'x')
    await userEvent.type(screen.getByLabelText('Current password'), 'old-secret')
    await userEvent.clear(screen.getByLabelText('New password (optional)'))
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await screen.findByText('Profile updated successfully!')
    expect(putBody(fetchMock)).toEqual({ email: 'demo@example.com', latitude: 30.67, longitude: 74.33 })
  })

  it('marks the current password when it is missing, before sending anything', async () => {
    const fetchMock = server(demo)
    renderProfile()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    await userEvent.type(screen.getByLabelText('New password (optional)'), 'another-secret')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    const field = screen.getByLabelText('Current password')
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveAccessibleDescription('Enter your current password to set a new one.')
    expect(field).toHaveFocus()
    expect(fetchMock.mock.calls.some(([, init]) => init.method === 'PUT')).toBe(false)
  })

  it.each([
    [403, { message: 'Forbidden' }, 'Your current password is not correct.'],
    [400, { message: 'currentPassword is required', field: 'currentPassword' }, 'currentPassword is required'],
  ])('shows a %i about the current password on that field', async (status, body, shown) => {
    server(demo, () => json(status, body))
    renderProfile()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    await userEvent.type(screen.getByLabelText('New password (optional)'), 'another-secret')
    await userEvent.type(screen.getByLabelText('Current password'), 'wrong-secret')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    const field = screen.getByLabelText('Current password')
    await vi.waitFor(() => expect(field).toHaveAccessibleDescription(shown))
    expect(field).toHaveAttribute('aria-invalid', 'true')
    // Typing again clears the mark.
    await userEvent.type(field, '!')
    expect(field).not.toHaveAttribute('aria-invalid')
  })

  it('says how long to wait when saving is rate limited', async () => {
    server(demo, () => new Response(JSON.stringify({ message: 'Too many requests' }), { status: 429, headers: { 'Retry-After': '30' } }))
    renderProfile()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Too many requests. Please wait 30 seconds and try again.')).toBeInTheDocument()
  })

  it('lets an admin edit without location: no coordinates shown or sent, and an Admin badge', async () => {
    const fetchMock = server(admin)
    renderProfile()
    expect(await screen.findByText('Admin')).toBeInTheDocument()
    expect(screen.queryByText('Latitude')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }))
    expect(screen.queryByLabelText('Latitude')).not.toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('Email'))
    await userEvent.type(screen.getByLabelText('Email'), 'root@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await screen.findByText('Profile updated successfully!')
    expect(putBody(fetchMock)).toEqual({ email: 'root@example.com' })
  })

  it('says "Failed to update profile" when the save fails, and keeps the form', async () => {
    server(demo, () => json(500, { message: 'Internal error (request abc)' }))
    renderProfile()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update profile')
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument()
  })

  it('Cancel leaves edit mode without saving', async () => {
    const fetchMock = server(demo)
    renderProfile()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeInTheDocument()
    expect(fetchMock.mock.calls.some(([, init]) => init.method === 'PUT')).toBe(false)
  })

  it('says "Failed to fetch profile" when it cannot be loaded', async () => {
    saveSession({ token: 't', user: demo, role: 'USER', id: 7 })
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(500, { message: 'boom' })))
    renderProfile()
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch profile')
  })

  it('says so when nobody is signed in', () => {
    renderProfile()
    expect(screen.getByText(/You are not logged in/)).toBeInTheDocument()
  })
})
