import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { getSession, getSignOutNotice, saveSession } from '@/lib/session'
import type { User } from '@/lib/types'
import { adminUser, demoUser } from '@/test/fixtures'
import { json, renderRoutes, routeFetch } from '@/test/render'
import { YourData } from './YourData'

function show(user: User) {
  saveSession({ token: 't', user, role: user.role, id: user.id })
  return renderRoutes(
    [
      { path: '/profile', element: <YourData user={user} /> },
      { path: '/login', element: <p>{'the sign-in page'}</p> },
    ],
    '/profile',
  )
}

afterEach(() => vi.unstubAllGlobals())

/** A blob's text (jsdom's Blob has no text()). */
const read = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.readAsText(blob)
  })

describe('Your data', () => {
  it('downloads everything held as one dated JSON file', async () => {
    const exported = { exportedAt: '2026-12-01T10:00:00.000Z', profile: demoUser, bookings: [], devices: [], shareLinks: [], patientReads: [] }
    const { calls } = routeFetch({ 'GET /user/export': () => json(200, exported) })
    const blobs: Blob[] = []
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.push(b), 'blob:x'), revokeObjectURL: () => undefined }))
    const clicked: string[] = []
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download)
    })
    show(demoUser)
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }))
    expect(await screen.findByText('Your data was downloaded.')).toBeInTheDocument()
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /user/export'])
    expect(clicked).toEqual(['ambucare-data-2026-12-01.json'])
    expect(JSON.parse(await read(blobs[0]!))).toEqual(exported)
    click.mockRestore()
  })

  it('asks for the password, says what the server refuses, and signs out once deleted', async () => {
    const answers = [
      json(403, { message: 'Password is incorrect', code: 'forbidden' }),
      json(409, { message: 'You have an open booking (#12): your account can be deleted once it has ended', code: 'openBookings' }),
      new Response(null, { status: 204 }),
    ]
    const { calls } = routeFetch({ 'DELETE /user/account': () => answers.shift()! })
    show(demoUser)
    await userEvent.click(await screen.findByRole('button', { name: 'Delete my account' }))
    const dialog = within(screen.getByRole('dialog', { name: 'Delete your account?' }))
    const confirm = () => userEvent.click(dialog.getByRole('button', { name: 'Delete my account' }))
    await confirm()
    expect(dialog.getByRole('alert')).toHaveTextContent('Enter your password to delete your account.')
    expect(calls).toEqual([])
    await userEvent.type(dialog.getByLabelText('Your password'), 'wrong-one')
    await confirm()
    expect(await dialog.findByText('That password is not correct.')).toBeInTheDocument()
    await confirm()
    expect(await dialog.findByText(/open booking \(#12\)/)).toBeInTheDocument()
    expect(getSession()).not.toBeNull()
    await confirm()
    expect(await screen.findByText('the sign-in page')).toBeInTheDocument()
    expect(getSession()).toBeNull()
    expect(getSignOutNotice()).toBe('Your account has been deleted.')
    expect(calls.map((c) => c.body)).toEqual([{ password: 'wrong-one' }, { password: 'wrong-one' }, { password: 'wrong-one' }])
  })

  it('offers staff the download only', async () => {
    routeFetch({})
    show(adminUser)
    expect(await screen.findByRole('button', { name: 'Download my data' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete my account' })).not.toBeInTheDocument()
    expect(screen.getByText('Staff accounts are removed by an administrator.')).toBeInTheDocument()
  })
})
