import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { ambulance, booking, demoUser, hospital } from '@/test/fixtures'
import { elapse, fakeClock } from '@/test/clock'
import { fix, stubNavigator } from '@/test/geolocation'
import { json, renderRoutes, routeFetch, type FetchCall } from '@/test/render'
import { REDIRECT_MS } from '../useBookingForm'
import BookAmbulancePage from './BookAmbulancePage'

afterEach(() => vi.unstubAllGlobals())

const near = [hospital(3, 'City Hospital', 1.2), hospital(4, 'Zeta Clinic', 4.56)]
const all = [hospital(4, 'Zeta Clinic'), hospital(5, 'Alpha Care'), hospital(3, 'City Hospital')]

function server(book: (call: FetchCall) => Response = () => json(201, booking(1))) {
  return routeFetch({
    'GET /hospitals/nearest': () => json(200, near),
    'GET /hospitals/all': () => json(200, { content: all, totalPages: 1, totalElements: 3, page: 0, size: 1000 }),
    'GET /ambulances/available': (c) => json(200, [ambulance(31, Number(c.query.get('hospitalId'))), ambulance(32, Number(c.query.get('hospitalId')))]),
    'POST /booking/book': book,
  })
}

function open(path = '/book-ambulance', user = demoUser) {
  saveSession({ token: 't', user, role: user.role, id: user.id })
  return renderRoutes(
    [
      { path: '/book-ambulance', element: <BookAmbulancePage /> },
      { path: '/history', element: <h1>History page</h1> },
    ],
    path,
  )
}

async function fillPatient() {
  await userEvent.type(screen.getByLabelText('Patient Name'), 'Asha Devi')
  await userEvent.type(screen.getByLabelText('Age'), '42')
  await userEvent.selectOptions(screen.getByLabelText('Gender'), 'Female')
  await userEvent.type(screen.getByLabelText('Medical Condition'), 'Chest pain')
}

const hospitalSelect = () => screen.getByLabelText('Hospital') as HTMLSelectElement
const ambulanceSelect = () => screen.getByLabelText('Available Ambulance') as HTMLSelectElement

describe('BookAmbulancePage', () => {
  it('lists the nearest hospitals first (with distance, limit 50), then the others by name', async () => {
    const { calls } = server()
    open()
    await waitFor(() => expect(hospitalSelect()).toBeEnabled())
    const groups = within(hospitalSelect()).getAllByRole('group')
    expect(groups.map((g) => g.getAttribute('label'))).toEqual(['Nearest to you', 'Other hospitals'])
    expect(within(groups[0]!).getAllByRole('option').map((o) => o.textContent)).toEqual(['City Hospital (1.2 km)', 'Zeta Clinic (4.6 km)'])
    expect(within(groups[1]!).getAllByRole('option').map((o) => o.textContent)).toEqual(['Alpha Care'])
    const nearestCall = calls.find((c) => c.path === '/hospitals/nearest')!
    expect(Object.fromEntries(nearestCall.query)).toEqual({ lat: '30.67', lng: '74.33', limit: '50' })
  })

  it('keeps the ambulance select disabled until a hospital is chosen, then lists the available ones', async () => {
    const { calls } = server()
    open()
    await waitFor(() => expect(hospitalSelect()).toBeEnabled())
    expect(ambulanceSelect()).toBeDisabled()
    await userEvent.selectOptions(hospitalSelect(), '5')
    await waitFor(() => expect(ambulanceSelect()).toBeEnabled())
    expect(within(ambulanceSelect()).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Select an ambulance',
      'PB-31 · Basic life support · Driver 31 · Crew online',
      'PB-32 · Basic life support · Driver 32 · Crew online',
    ])
    expect(calls.some((c) => c.path === '/ambulances/available' && c.query.get('hospitalId') === '5')).toBe(true)
  })

  it("says 'Please fill in all required fields.' and sends nothing when a field is missing", async () => {
    const { calls } = server()
    open()
    await userEvent.click(await screen.findByRole('button', { name: 'Book Ambulance' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all required fields.')
    expect(hospitalSelect()).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('Patient Name')).toHaveAttribute('aria-invalid', 'true')
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  it('preselects hospital and ambulance from the address, books, and goes to /history after 1.5 s', async () => {
    const { calls } = server()
    open('/book-ambulance?hospitalId=3&ambulanceId=32')
    await waitFor(() => expect(ambulanceSelect().value).toBe('32'))
    expect(hospitalSelect().value).toBe('3')
    await userEvent.click(screen.getByLabelText(/Emergency/))
    await fillPatient()
    const user = fakeClock()
    await user.click(screen.getByRole('button', { name: 'Book Emergency Ambulance' }))
    expect(await screen.findByText(/Ambulance booked successfully!/)).toBeInTheDocument()
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.query.get('userId')).toBe('7')
    expect(post.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(post.body).toEqual({
      hospitalId: 3,
      ambulanceId: 32,
      bookingType: 'EMERGENCY',
      patient: { name: 'Asha Devi', age: 42, gender: 'Female', condition: 'Chest pain' },
      // The pin starts at the profile location.
      pickup: { latitude: 30.67, longitude: 74.33 },
    })
    expect(screen.queryByText('History page')).not.toBeInTheDocument()
    await elapse(REDIRECT_MS)
    expect(await screen.findByText('History page')).toBeInTheDocument()
  })

  it('sends the pickup placed by "use my current location", with its landmark', async () => {
    const { calls } = server()
    stubNavigator({ geolocation: { getCurrentPosition: (ok: PositionCallback) => ok(fix(30.712345, 74.301234)) } })
    open('/book-ambulance?hospitalId=3&ambulanceId=31')
    await waitFor(() => expect(ambulanceSelect().value).toBe('31'))
    await fillPatient()
    expect(screen.getByRole('group', { name: 'Pickup location' })).toBeInTheDocument()
    expect(screen.getByLabelText('Pickup latitude')).toHaveValue('30.67')
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }))
    expect(screen.getByLabelText('Pickup latitude')).toHaveValue('30.712345')
    expect(screen.getByLabelText('Pickup longitude')).toHaveValue('74.301234')
    await userEvent.type(screen.getByLabelText('Landmark (optional)'), ' gate 2, blue house ')
    await userEvent.click(screen.getByRole('button', { name: 'Book Ambulance' }))
    expect(await screen.findByText(/Ambulance booked successfully!/)).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      pickup: { latitude: 30.712345, longitude: 74.301234, landmark: 'gate 2, blue house' },
    })
  })

  it('shows a 400 naming pickup on the pickup field (no pin, no stored location)', async () => {
    const { calls } = server(() => json(400, { message: 'pickup is required: you have no stored location', field: 'pickup' }))
    open('/book-ambulance?hospitalId=3&ambulanceId=31', { ...demoUser, latitude: null, longitude: null })
    await waitFor(() => expect(ambulanceSelect().value).toBe('31'))
    expect(screen.getByLabelText('Pickup latitude')).toHaveValue('')
    await fillPatient()
    await userEvent.click(screen.getByRole('button', { name: 'Book Ambulance' }))
    const latitude = screen.getByLabelText('Pickup latitude')
    await waitFor(() => expect(latitude).toHaveAttribute('aria-invalid', 'true'))
    expect(calls.find((c) => c.method === 'POST')!.body).not.toHaveProperty('pickup')
    expect(latitude).toHaveAccessibleDescription('pickup is required: you have no stored location')
    expect(latitude).toHaveFocus()
    // Placing the pin clears the mark.
    await userEvent.type(latitude, '30.7')
    expect(latitude).not.toHaveAttribute('aria-invalid')
  })

  it('marks the pickup, and sends nothing, for a landmark without a pin', async () => {
    const { calls } = server()
    open('/book-ambulance?hospitalId=3&ambulanceId=31', { ...demoUser, latitude: null, longitude: null })
    await waitFor(() => expect(ambulanceSelect().value).toBe('31'))
    await fillPatient()
    await userEvent.type(screen.getByLabelText('Landmark (optional)'), 'gate 2')
    await userEvent.click(screen.getByRole('button', { name: 'Book Ambulance' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Place the pickup on the map (or type its coordinates) to add a landmark.')
    expect(screen.getByLabelText('Pickup latitude')).toHaveAttribute('aria-invalid', 'true')
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  it('says so when the preselected ambulance is no longer available', async () => {
    server()
    open('/book-ambulance?hospitalId=3&ambulanceId=99')
    expect(await screen.findByText('The ambulance you picked is no longer available. Please choose another.')).toBeInTheDocument()
    expect(ambulanceSelect().value).toBe('')
  })

  it("on 409 shows the server's message and refreshes the ambulance list", async () => {
    const { calls } = server(() => json(409, { message: 'Ambulance is no longer available' }))
    open('/book-ambulance?hospitalId=3&ambulanceId=31')
    await waitFor(() => expect(ambulanceSelect().value).toBe('31'))
    await fillPatient()
    const before = calls.filter((c) => c.path === '/ambulances/available').length
    await userEvent.click(screen.getByRole('button', { name: 'Book Ambulance' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Ambulance is no longer available')
    await waitFor(() => expect(calls.filter((c) => c.path === '/ambulances/available').length).toBe(before + 1))
    expect(ambulanceSelect().value).toBe('')
  })

  it("says 'Booking failed. Please try again.' on a server error, and a retry reuses the Idempotency-Key", async () => {
    let answer = json(500, { message: 'Internal error' })
    const { calls } = server(() => answer)
    open('/book-ambulance?hospitalId=3&ambulanceId=31')
    await waitFor(() => expect(ambulanceSelect().value).toBe('31'))
    await fillPatient()
    await userEvent.click(screen.getByRole('button', { name: 'Book Ambulance' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Booking failed. Please try again.')
    answer = json(201, booking(1))
    await userEvent.click(screen.getByRole('button', { name: 'Book Ambulance' }))
    expect(await screen.findByText(/Ambulance booked successfully!/)).toBeInTheDocument()
    const posts = calls.filter((c) => c.method === 'POST')
    expect(posts).toHaveLength(2)
    expect(posts[1]!.headers['Idempotency-Key']).toBe(posts[0]!.headers['Idempotency-Key'])
  })

  it('a changed form is a new submission with a new key', async () => {
    const { calls } = server(() => json(400, { message: 'age must be between 0 and 150', field: 'patient.age' }))
    open('/book-ambulance?hospitalId=3&ambulanceId=31')
    await waitFor(() => expect(ambulanceSelect().value).toBe('31'))
    await fillPatient()
    await userEvent.click(screen.getByRole('button', { name: 'Book Ambulance' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('age must be between 0 and 150')
    expect(screen.getByLabelText('Age')).toHaveAttribute('aria-invalid', 'true')
    await userEvent.clear(screen.getByLabelText('Age'))
    await userEvent.type(screen.getByLabelText('Age'), '43')
    await userEvent.click(screen.getByRole('button', { name: 'Book Ambulance' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2))
    const [a, b] = calls.filter((c) => c.method === 'POST')
    expect(b!.headers['Idempotency-Key']).not.toBe(a!.headers['Idempotency-Key'])
  })

  it("without a stored location lists every hospital by name and doesn't ask for the nearest", async () => {
    const { calls } = server()
    open('/book-ambulance', { ...demoUser, latitude: null, longitude: null })
    await waitFor(() => expect(hospitalSelect()).toBeEnabled())
    expect(within(hospitalSelect()).queryAllByRole('group')).toHaveLength(0)
    expect(within(hospitalSelect()).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Select a hospital',
      'Alpha Care',
      'City Hospital',
      'Zeta Clinic',
    ])
    expect(calls.some((c) => c.path === '/hospitals/nearest')).toBe(false)
  })

  it("says 'Please log in to book an ambulance' when nobody is signed in", async () => {
    const { calls } = server()
    renderRoutes([{ path: '/book-ambulance', element: <BookAmbulancePage /> }], '/book-ambulance?hospitalId=3&ambulanceId=31')
    await waitFor(() => expect(ambulanceSelect().value).toBe('31'))
    await fillPatient()
    await userEvent.click(screen.getByRole('button', { name: 'Book Ambulance' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Please log in to book an ambulance')
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })
})
