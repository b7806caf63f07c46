import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { adminUser, ambulance, hospital } from '@/test/fixtures'
import { json, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import type { Crew } from '@/lib/types'
import AdminAmbulancesPage from './AdminAmbulancesPage'
import AdminCrewPage from './AdminCrewPage'

afterEach(() => vi.unstubAllGlobals())

const member = (id: number, username: string, ambulanceId: number): Crew => ({
  id,
  username,
  email: `${username}@example.com`,
  phone: `+1555010${id}`,
  role: 'CREW',
  ambulanceId,
  createdAt: '2026-01-01T00:00:00Z',
})

function open(path: string, crew: Crew[], routes: Record<string, (call: FetchCall) => Response> = {}) {
  saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
  const stub = routeFetch({
    'GET /admin/crew': (c) =>
      // Two pages of one, to show that every page is read.
      json(200, { content: crew.slice(Number(c.query.get('page')), Number(c.query.get('page')) + 1), totalPages: crew.length, totalElements: crew.length, page: 0, size: 1 }),
    'GET /admin/ambulances/all': () => json(200, [ambulance(31, 3), ambulance(32, 3), ambulance(33, 4)]),
    ...routes,
  })
  renderRoutes(
    [
      { path: '/admin/crew', element: <AdminCrewPage /> },
      { path: '/admin/ambulances', element: <AdminAmbulancesPage /> },
    ],
    path,
  )
  return stub
}

const rowOf = (name: string) => screen.getByText(name).closest('tr')!

describe('AdminCrewPage', () => {
  it('lists every crew account (all pages) with its ambulance', async () => {
    const { calls } = open('/admin/crew', [member(1, 'crew1', 31), member(2, 'crew2', 33)])
    expect(await screen.findByText('crew2')).toBeInTheDocument()
    expect(within(rowOf('crew1')).getByText('PB-31 · Hospital 3')).toBeInTheDocument()
    expect(within(rowOf('crew2')).getByText('PB-33 · Hospital 4')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/admin/crew').map((c) => c.query.get('page'))).toEqual(['0', '1'])
  })

  it('creates a hospital staff account tied to a hospital, and says a taken username plainly', async () => {
    let taken = true
    const { calls } = open('/admin/crew', [], {
      'GET /hospitals/all': () => json(200, { content: [hospital(3, 'City Hospital'), hospital(4, 'Civil Hospital')], totalPages: 1, totalElements: 2, page: 0, size: 1000 }),
      'POST /admin/hospital-staff': (c) =>
        taken
          ? json(409, { message: 'Username already exists', field: 'username' })
          : json(201, { id: 9, username: 'er-desk', email: 'er@example.com', phoneNumber: '+91 98140 00101', hospitalId: 4, hospitalName: 'Civil Hospital', echo: c.body }),
    })
    const section = within(await screen.findByRole('region', { name: 'Hospital staff' }))
    await userEvent.click(section.getByRole('button', { name: 'Add Hospital Staff', expanded: false }))
    const form = within(section.getByRole('form', { name: 'Add hospital staff' }))
    await userEvent.click(form.getByRole('button', { name: 'Add Hospital Staff' }))
    expect(form.getByRole('alert')).toHaveTextContent('Please fill in all required fields.')
    await userEvent.type(form.getByLabelText('Username'), ' er-desk ')
    await userEvent.type(form.getByLabelText('Email'), 'er@example.com')
    await userEvent.type(form.getByLabelText('Password'), 'staff-password')
    await userEvent.type(form.getByLabelText('Phone'), '+91 98140 00101')
    await waitFor(() => expect(form.getAllByRole('option')).toHaveLength(3))
    await userEvent.selectOptions(form.getByLabelText('Hospital'), 'Civil Hospital')
    await userEvent.click(form.getByRole('button', { name: 'Add Hospital Staff' }))
    expect(await form.findByRole('alert')).toHaveTextContent('Username already exists')
    taken = false
    await userEvent.click(form.getByRole('button', { name: 'Add Hospital Staff' }))
    expect(await section.findByText('Staff account er-desk created for Civil Hospital.')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/admin/hospital-staff').at(-1)!.body).toEqual({
      username: 'er-desk', email: 'er@example.com', password: 'staff-password', phoneNumber: '+91 98140 00101', hospitalId: 4,
    })
    // The form closes once the account is made.
    expect(section.queryByRole('form', { name: 'Add hospital staff' })).not.toBeInTheDocument()
  })

  it('creates a crew account', async () => {
    const { calls } = open('/admin/crew', [], { 'POST /admin/crew': () => json(201, member(3, 'crew3', 32)) })
    await userEvent.click(await screen.findByRole('button', { name: 'Add Crew', expanded: false }))
    const form = within(screen.getByRole('form', { name: 'Add crew' }))
    await userEvent.click(form.getByRole('button', { name: 'Add Crew' }))
    expect(form.getByRole('alert')).toHaveTextContent('Please fill in all required fields.')
    await userEvent.type(form.getByLabelText('Username'), 'crew3')
    await userEvent.type(form.getByLabelText('Email'), 'crew3@example.com')
    await userEvent.type(form.getByLabelText('Password'), 'crew12345')
    await userEvent.type(form.getByLabelText('Phone'), '+15550103')
    await waitFor(() => expect(form.getAllByRole('option')).toHaveLength(4))
    await userEvent.selectOptions(form.getByLabelText('Ambulance'), '32')
    await userEvent.click(form.getByRole('button', { name: 'Add Crew' }))
    expect(await screen.findByText('Crew account created.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      username: 'crew3',
      email: 'crew3@example.com',
      password: 'crew12345',
      phoneNumber: '+15550103',
      ambulanceId: 32,
    })
  })

  it("shows the server's reason when a create is refused", async () => {
    open('/admin/crew', [], { 'POST /admin/crew': () => json(409, { message: 'Username is already taken', field: 'username' }) })
    await userEvent.click(await screen.findByRole('button', { name: 'Add Crew', expanded: false }))
    const form = within(screen.getByRole('form', { name: 'Add crew' }))
    for (const [label, value] of [['Username', 'crew1'], ['Email', 'c@x.io'], ['Password', 'crew12345'], ['Phone', '+15550101']]) {
      await userEvent.type(form.getByLabelText(label!), value!)
    }
    await waitFor(() => expect(form.getAllByRole('option')).toHaveLength(4))
    await userEvent.selectOptions(form.getByLabelText('Ambulance'), '31')
    await userEvent.click(form.getByRole('button', { name: 'Add Crew' }))
    expect(await form.findByRole('alert')).toHaveTextContent('Username is already taken')
  })

  it('moves a crew to another ambulance', async () => {
    const { calls } = open('/admin/crew', [member(1, 'crew1', 31)], { 'PATCH /admin/crew/1': () => json(200, member(1, 'crew1', 33)) })
    await userEvent.click(await screen.findByRole('button', { name: 'Move crew1 to another ambulance' }))
    const dialog = within(screen.getByRole('dialog', { name: 'Move crew1' }))
    // Not the ambulance it is on already.
    expect(dialog.getAllByRole('option').map((o) => o.textContent)).toEqual(['Select an ambulance', 'PB-32 · Hospital 3', 'PB-33 · Hospital 4'])
    await userEvent.selectOptions(dialog.getByLabelText('New ambulance'), '33')
    await userEvent.click(dialog.getByRole('button', { name: 'Move Crew' }))
    expect(await screen.findByText('Crew moved to the other ambulance.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ ambulanceId: 33 })
  })

  it('removes a crew after the confirmation', async () => {
    const { calls } = open('/admin/crew', [member(1, 'crew1', 31)], { 'DELETE /admin/crew/1': () => new Response(null, { status: 204 }) })
    await userEvent.click(await screen.findByRole('button', { name: 'Remove crew crew1' }))
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Confirm Removal' })).getByRole('button', { name: 'Remove Crew' }))
    expect(await screen.findByText('Crew account removed.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/admin/crew/1')).toBe(true)
  })

  it('says when there is no crew yet', async () => {
    open('/admin/crew', [])
    expect(await screen.findByText('No crew yet')).toBeInTheDocument()
  })

  it('shows each ambulance card with its crew on the ambulances screen', async () => {
    open('/admin/ambulances', [member(1, 'crew1', 31), member(2, 'crew2', 31)])
    const card = (await screen.findByText('PB-31')).closest('li')!
    await waitFor(() => expect(within(card).getByText(/crew1 \(\+15550101\), crew2 \(\+15550102\)/)).toBeInTheDocument())
    expect(within(screen.getByText('PB-32').closest('li')!).getByText('No crew')).toBeInTheDocument()
  })
})
