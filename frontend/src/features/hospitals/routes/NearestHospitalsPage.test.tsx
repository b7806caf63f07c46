import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveSession } from '@/lib/session'
import { demoUser, hospital } from '@/test/fixtures'
import { json, LAZY_MAP, renderRoutes, routeFetch } from '@/test/render'
import NearestHospitalsPage from './NearestHospitalsPage'

afterEach(() => vi.unstubAllGlobals())

function open(path: string, answer = () => json(200, [hospital(3, 'City Hospital', 1.234), hospital(4, 'Zeta Clinic', 4.5)])) {
  saveSession({ token: 't', user: demoUser, role: 'USER', id: demoUser.id })
  const stub = routeFetch({ 'GET /hospitals/nearest': answer })
  renderRoutes([{ path: '/hospitals/nearest', element: <NearestHospitalsPage /> }], path)
  return stub
}

describe('NearestHospitalsPage', () => {
  it('lists the hospitals with distance and Closest, and draws them on a lazily loaded map', async () => {
    open('/hospitals/nearest?lat=30.67&lng=74.33')
    const list = await screen.findByRole('list')
    expect(within(list).getAllByRole('heading').map((h) => h.textContent)).toEqual(['City Hospital', 'Zeta Clinic'])
    expect(within(list).getByText('1.2 km')).toBeInTheDocument()
    expect(screen.getAllByText('Closest')).toHaveLength(1)
    // Leaflet loads in its own chunk; the map region appears once it has.
    const map = await screen.findByRole('region', { name: 'Map of the nearest hospitals' }, LAZY_MAP)
    expect(map.querySelector('.leaflet-container')).not.toBeNull()
    expect(await within(map).findByText('You are here')).toBeInTheDocument()
  })

  it('marks a hospital on diversion with until when, and only that one', async () => {
    const until = '2026-03-01T14:30:00Z'
    open('/hospitals/nearest?lat=30.67&lng=74.33', () => json(200, [hospital(3, 'City Hospital', 1.2), { ...hospital(4, 'Zeta Clinic', 4.5), onDiversionUntil: until }]))
    const list = await screen.findByRole('list')
    const [city, zeta] = within(list).getAllByRole('listitem')
    const hhmm = new Date(until).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' })
    expect(within(zeta!).getByText(`On diversion until ${hhmm}`)).toBeInTheDocument()
    expect(within(city!).queryByText(/On diversion/)).not.toBeInTheDocument()
  })

  it("says 'Failed to fetch nearby hospitals' and draws no map when the search fails", async () => {
    open('/hospitals/nearest?lat=30.67&lng=74.33', () => json(500, { message: 'boom' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch nearby hospitals')
    expect(screen.queryByRole('region', { name: 'Map of the nearest hospitals' })).not.toBeInTheDocument()
  })
})
