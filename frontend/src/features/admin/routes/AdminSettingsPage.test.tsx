import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { emergencyNumber } from '@/lib/liveEmergencyNumber'
import { saveSession } from '@/lib/session'
import type { Settings } from '@/lib/types'
import { adminUser } from '@/test/fixtures'
import { json, renderRoutes, routeFetch } from '@/test/render'
import AdminSettingsPage from './AdminSettingsPage'

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

const stored: Settings = {
  emergencyAnswerSeconds: 60,
  normalAnswerSeconds: 300,
  automaticMoves: 3,
  sosRadiusKm: 50,
  presenceDelaySeconds: { ONLINE: 15, OFFLINE: 120, NO_CREW: 120 },
  emergencyNumber: '911',
  retentionDays: 90,
  answerTargetSeconds: 60,
  pickupTargetMinutes: 15,
}

function open(put: Parameters<typeof routeFetch>[0][string] = (c) => json(200, { ...stored, ...(c.body as object) })) {
  saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
  const stub = routeFetch({ 'GET /admin/settings': () => json(200, stored), 'PUT /admin/settings': put })
  renderRoutes([{ path: '/admin/settings', element: <AdminSettingsPage /> }], '/admin/settings')
  return stub
}

describe('AdminSettingsPage', () => {
  it('shows every setting with its range, and sends only what changed', async () => {
    const { calls } = open()
    const window = await screen.findByLabelText('Emergency answer window')
    expect(window).toHaveValue(60)
    expect(window).toHaveAccessibleDescription('From 5 to 600 seconds')
    expect(screen.getByLabelText('SOS search radius')).toHaveAccessibleDescription('From 1 to 200 km')
    expect(screen.getByLabelText('Expected answer: crew online')).toHaveValue(15)
    expect(screen.getByLabelText('Emergency number to dial')).toHaveValue('911')

    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Save Settings' }))
    expect(await screen.findByText('Nothing to save: no value was changed.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0)

    await user.clear(window)
    await user.type(window, '45')
    await user.clear(screen.getByLabelText('Expected answer: crew offline'))
    await user.type(screen.getByLabelText('Expected answer: crew offline'), '90')
    await user.clear(screen.getByLabelText('Emergency number to dial'))
    await user.type(screen.getByLabelText('Emergency number to dial'), '112')
    await user.click(screen.getByRole('button', { name: 'Save Settings' }))
    expect(await screen.findByText(/Settings saved/)).toBeInTheDocument()
    const put = calls.find((c) => c.method === 'PUT')!
    expect(put.body).toEqual({ emergencyAnswerSeconds: 45, presenceDelaySeconds: { OFFLINE: 90 }, emergencyNumber: '112' })
    // This device's call buttons follow at once.
    expect(emergencyNumber()).toBe('112')
  })

  it('shows a refused value beside its input, and a number that is not whole before sending', async () => {
    const { calls } = open(() =>
      json(400, { message: 'sosRadiusKm must be from 1 to 200, got 0', code: 'invalid', field: 'sosRadiusKm' }),
    )
    const user = userEvent.setup()
    const radius = await screen.findByLabelText('SOS search radius')
    await user.clear(radius)
    await user.type(radius, '0')
    await user.click(screen.getByRole('button', { name: 'Save Settings' }))
    await waitFor(() => expect(radius).toHaveAttribute('aria-invalid', 'true'))
    expect(radius).toHaveAccessibleDescription('From 1 to 200 km Not saved: it must be from 1 to 200 km.')
    expect(screen.getByLabelText('Emergency answer window')).not.toHaveAttribute('aria-invalid')

    const moves = screen.getByLabelText('Automatic moves of an unanswered emergency')
    await user.clear(moves)
    await user.click(screen.getByRole('button', { name: 'Save Settings' }))
    expect(await within(moves.parentElement!).findByText('Enter a whole number.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1)
  })

  it('says so when the settings cannot be read, with a retry', async () => {
    saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
    routeFetch({ 'GET /admin/settings': () => json(500, { message: 'boom' }) })
    renderRoutes([{ path: '/admin/settings', element: <AdminSettingsPage /> }], '/admin/settings')
    expect(await screen.findByText('Failed to load the settings')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})
