import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, renderRoutes, routeFetch } from '@/test/render'
import { RegisterPage } from './RegisterPage'

function renderRegister() {
  return renderRoutes(
    [
      { path: '/register', element: <RegisterPage /> },
      { path: '/login', element: <p>Login page</p> },
    ],
    '/register',
  )
}

async function fill(values: Partial<Record<string, string>>) {
  for (const [label, value] of Object.entries(values)) {
    const input = screen.getByLabelText(label)
    await userEvent.clear(input)
    if (value) await userEvent.type(input, value)
  }
}

/** Fills in `values` and presses Register. */
async function submit(values: Partial<Record<string, string>>) {
  renderRegister()
  await fill(values)
  await userEvent.click(screen.getByRole('button', { name: 'Register' }))
}

/** The form refuses `values` with `message` and marks `field`, and the server hears nothing. */
async function expectRefused(values: Partial<Record<string, string>>, message: string, field: string) {
  const { calls } = routeFetch({})
  await submit(values)
  expect(await screen.findByRole('alert')).toHaveTextContent(message)
  expect(screen.getByLabelText(field)).toHaveAttribute('aria-invalid', 'true')
  expect(calls).toHaveLength(0)
}

const complete = {
  Username: 'asha',
  Email: 'asha@example.com',
  Password: 'secret-123',
  Phone: '+919876543210',
  Latitude: '30.67',
  Longitude: '74.33',
}

afterEach(() => vi.unstubAllGlobals())

describe('RegisterPage', () => {
  it('says "Please fill in all fields." and marks the blank ones, without calling the server', async () => {
    await expectRefused({ ...complete, Phone: '   ' }, 'Please fill in all fields.', 'Phone')
    expect(screen.getByLabelText('Phone')).toHaveFocus()
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid')
  })

  it('has an email-type email field', () => {
    renderRegister()
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email')
  })

  it('rejects coordinates that are not numbers', async () => {
    await expectRefused({ ...complete, Longitude: 'east' }, 'Latitude and longitude must be numbers.', 'Longitude')
  })

  it('sends numbers for the coordinates and goes to /login on success', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(201, { token: 't', role: 'USER', id: 5 }))
    vi.stubGlobal('fetch', fetchMock)
    await submit(complete)
    expect(await screen.findByText('Login page')).toBeInTheDocument()
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/auth/register')
    expect(JSON.parse(init.body)).toEqual({ ...lower(complete), latitude: 30.67, longitude: 74.33 })
  })

  it("shows the server's message and marks the field it names", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(409, { message: 'Username is already taken', field: 'username' })))
    await submit(complete)
    expect(await screen.findByRole('alert')).toHaveTextContent('Username is already taken')
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true')
  })

  it('says "Registration failed" when the server gives no usable message', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')))
    await submit(complete)
    expect(await screen.findByRole('alert')).toHaveTextContent('Registration failed')
  })

  it('fills the coordinates from the browser, or says why it cannot', async () => {
    const getCurrentPosition = vi.fn((ok: PositionCallback) =>
      ok({ coords: { latitude: 30.123456789, longitude: 74.5 } } as GeolocationPosition),
    )
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } })
    renderRegister()
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }))
    expect(screen.getByLabelText('Latitude')).toHaveValue('30.123457')
    expect(screen.getByLabelText('Longitude')).toHaveValue('74.500000')

    getCurrentPosition.mockImplementation(((_ok: PositionCallback, fail: PositionErrorCallback) =>
      fail({ code: 1, PERMISSION_DENIED: 1 } as GeolocationPositionError)) as never)
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(/Location permission was denied/)
  })
})

function lower(values: Record<string, string>) {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]))
}
