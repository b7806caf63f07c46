import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { ambulance, booking, demoUser, hospital } from '@/test/fixtures'
import { elapse, fakeClock } from '@/test/clock'
import { json, LAZY_MAP, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { REDIRECT_MS } from '../useBookingForm'
import HospitalAmbulancesPage from './HospitalAmbulancesPage'

afterEach(() => vi.unstubAllGlobals())

function open(book: (call: FetchCall) => Response | Promise<Response> = () => json(201, booking(1))) {
  saveSession({ token: 't', user: demoUser, role: 'USER', id: demoUser.id })
  const stub = routeFetch({
    'GET /hospitals/3': () => json(200, hospital(3, 'City Hospital')),
    'GET /ambulances/hospital/3': () => json(200, [ambulance(31, 3), ambulance(32, 3, 'ON_DUTY')]),
    'GET /ambulances/counts': () => json(200, { total: 2, available: 1, onDuty: 1, maintenance: 0 }),
    'POST /booking/book': book,
  })
  renderRoutes(
    [
      { path: '/hospitals/:id/ambulances', element: <HospitalAmbulancesPage /> },
      { path: '/history', element: <h1>History page</h1> },
    ],
    '/hospitals/3/ambulances',
  )
  return stub
}

describe('booking dialog on a hospital’s ambulances', () => {
  it("offers 'Book Now' only for an available ambulance", async () => {
    open()
    expect(await screen.findByRole('heading', { name: 'City Hospital Ambulances' })).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: /Book Now/ })).toHaveLength(1)
    expect(screen.getByRole('button', { name: 'Not Available' })).toBeDisabled()
  })

  it('opens an accessible dialog with the type descriptions; the button names the type; Escape closes', async () => {
    open()
    await userEvent.click(await screen.findByRole('button', { name: 'Book Now: ambulance PB-31' }))
    const dialog = screen.getByRole('dialog', { name: 'Book Ambulance PB-31' })
    expect(dialog).toHaveAttribute('aria-modal', 'true')
    expect(within(dialog).getByText('Regular medical transport')).toBeInTheDocument()
    expect(within(dialog).getByText('Urgent medical care')).toBeInTheDocument()
    expect(within(dialog).getByLabelText(/Normal/)).toBeChecked()
    expect(within(dialog).getByRole('button', { name: 'Book Ambulance' })).toBeInTheDocument()
    await userEvent.click(within(dialog).getByLabelText(/Emergency/))
    expect(within(dialog).getByRole('button', { name: 'Book Emergency Ambulance' })).toBeInTheDocument()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('books the chosen ambulance, shows "Booking..." while sending, then the success message and /history', async () => {
    let release!: (r: Response) => void
    const { calls } = open(() => new Promise<Response>((r) => (release = r)))
    await userEvent.click(await screen.findByRole('button', { name: /Book Now/ }))
    const dialog = screen.getByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Book Ambulance' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please fill in all required fields.')
    await userEvent.type(within(dialog).getByLabelText('Patient Name'), 'Asha')
    await userEvent.type(within(dialog).getByLabelText('Age'), '7')
    await userEvent.selectOptions(within(dialog).getByLabelText('Gender'), 'Other')
    await userEvent.type(within(dialog).getByLabelText('Medical Condition'), 'Fever')
    // The pickup: the profile location, moved by typing, and a landmark.
    expect(await within(dialog).findByRole('region', { name: 'Map of the pickup location' }, LAZY_MAP)).toBeInTheDocument()
    await userEvent.clear(within(dialog).getByLabelText('Pickup longitude'))
    await userEvent.type(within(dialog).getByLabelText('Pickup longitude'), '74.35')
    await userEvent.type(within(dialog).getByLabelText('Landmark (optional)'), 'blue gate')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Book Ambulance' }))
    expect(await within(dialog).findByRole('button', { name: 'Booking...' })).toBeDisabled()
    fakeClock()
    release(json(201, booking(1)))
    expect(await within(dialog).findByText(/Ambulance booked successfully!/)).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      hospitalId: 3,
      ambulanceId: 31,
      bookingType: 'NORMAL',
      pickup: { latitude: 30.67, longitude: 74.35, landmark: 'blue gate' },
    })
    expect(screen.queryByText('History page')).not.toBeInTheDocument()
    await elapse(REDIRECT_MS)
    expect(await screen.findByText('History page')).toBeInTheDocument()
  })

  it("on 409 shows the server's message and refreshes the list", async () => {
    const { calls } = open(() => json(409, { message: 'Ambulance is no longer available' }))
    await userEvent.click(await screen.findByRole('button', { name: /Book Now/ }))
    const dialog = screen.getByRole('dialog')
    await userEvent.type(within(dialog).getByLabelText('Patient Name'), 'Asha')
    await userEvent.type(within(dialog).getByLabelText('Age'), '7')
    await userEvent.selectOptions(within(dialog).getByLabelText('Gender'), 'Male')
    await userEvent.type(within(dialog).getByLabelText('Medical Condition'), 'Fever')
    const before = calls.filter((c) => c.path === '/ambulances/hospital/3').length
    await userEvent.click(within(dialog).getByRole('button', { name: 'Book Ambulance' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Ambulance is no longer available')
    await waitFor(() => expect(calls.filter((c) => c.path === '/ambulances/hospital/3').length).toBeGreaterThan(before))
  })
})
