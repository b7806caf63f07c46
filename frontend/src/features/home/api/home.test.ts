import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api'
import { fetchHomeStats, homeErrorMessage } from './home'

const hospitals = [1, 2, 3, 4, 5].map((id) => ({ id, name: `H${id}`, address: '', latitude: 0, longitude: 0 }))
const counts = { total: 9, available: 4, onDuty: 3, maintenance: 2 }
const amb = (id: number, status = 'AVAILABLE') => ({ id, number: `A${id}`, status, type: 'BLS', hospitalId: 1, hospital: { id: 1, name: 'H1', address: '' } })

/** A fake server: path (with query) → [status, body]. Unknown paths answer 404. */
function server(routes: Record<string, [number, unknown]>) {
  const fetchMock = vi.fn(async (url: string) => {
    const [status, body] = routes[url] ?? [404, { message: 'Not found' }]
    return new Response(JSON.stringify(body), { status })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

const page = { content: hospitals, totalPages: 1, totalElements: 52, page: 0, size: 10 }

afterEach(() => vi.unstubAllGlobals())

describe('fetchHomeStats', () => {
  it('reads the hospital total, the fleet counts and the available ambulances', async () => {
    server({
      '/api/hospitals/all?page=0&size=10': [200, page],
      '/api/ambulances/counts': [200, counts],
      '/api/ambulances/available/all': [200, [amb(1), amb(2)]],
    })
    await expect(fetchHomeStats(false)).resolves.toEqual({ hospitals: 52, ambulances: counts, available: [amb(1), amb(2)] })
  })

  it('falls back to the first 3 hospitals one by one when signed out, swallowing their failures', async () => {
    const fetchMock = server({
      '/api/hospitals/all?page=0&size=10': [200, page],
      '/api/ambulances/counts': [200, counts],
      '/api/ambulances/available/all': [500, { message: 'boom' }],
      '/api/ambulances/available?hospitalId=1': [200, [amb(1)]],
      '/api/ambulances/available?hospitalId=2': [500, { message: 'boom' }],
      '/api/ambulances/available?hospitalId=3': [200, [amb(3), amb(4, 'ON_DUTY')]],
    })
    const stats = await fetchHomeStats(false)
    expect(stats.available.map((a) => a.id)).toEqual([1, 3])
    const asked = fetchMock.mock.calls.map(([url]) => url).filter((u) => u.includes('hospitalId'))
    expect(asked).toHaveLength(3)
  })

  it('asks every listed hospital when signed in', async () => {
    const fetchMock = server({
      '/api/hospitals/all?page=0&size=10': [200, page],
      '/api/ambulances/counts': [200, counts],
    })
    await expect(fetchHomeStats(true)).resolves.toMatchObject({ available: [] })
    expect(fetchMock.mock.calls.filter(([url]) => url.includes('hospitalId'))).toHaveLength(5)
  })

  it('fails as a whole when the counts cannot be read', async () => {
    server({ '/api/hospitals/all?page=0&size=10': [200, page], '/api/ambulances/counts': [503, { message: 'down' }] })
    await expect(fetchHomeStats(true)).rejects.toMatchObject({ status: 503 })
  })
})

describe('homeErrorMessage', () => {
  it.each([
    [new ApiError('x', 403, 'http'), 'Access denied. Some data may not be available.'],
    [new ApiError('x', 401, 'http'), 'Please log in to view complete dashboard data.'],
    [new ApiError('x', 500, 'http'), 'Server error. Please try again later.'],
    [new ApiError('x', 503, 'http'), 'Server error. Please try again later.'],
    [new ApiError('Network Error', 0, 'network'), 'Unable to connect to server. Please check your internet connection.'],
    [new ApiError('Request timed out', 0, 'timeout'), 'Unable to connect to server. Please check your internet connection.'],
    [new ApiError('x', 404, 'http'), 'Failed to load dashboard data. Using default values.'],
    [new Error('x'), 'Failed to load dashboard data. Using default values.'],
  ])('signed in: %o → %s', (error, message) => {
    expect(homeErrorMessage(error, true)).toBe(message)
  })

  it('says the public data could not be loaded when signed out', () => {
    expect(homeErrorMessage(new ApiError('Network Error', 0, 'network'), false)).toBe(
      'Unable to load public data. Please try again later.',
    )
  })
})
