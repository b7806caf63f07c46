import { act, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useHospital } from '@/features/hospitals'
import { saveSession } from '@/lib/session'
import { adminUser, hospital } from '@/test/fixtures'
import { json, renderHookWithClient, routeFetch } from '@/test/render'
import { useAddHospital, useRemoveHospital } from './admin'

afterEach(() => vi.unstubAllGlobals())

describe('a change to the fleet', () => {
  // The single-hospital query used to be keyed ['hospital', id], outside ['hospitals'],
  // so a hospital removed or added in the admin screens left a stale copy behind.
  it('refreshes the single-hospital query too', async () => {
    saveSession({ token: 't', user: adminUser, role: 'ADMIN', id: adminUser.id })
    const { calls } = routeFetch({
      'GET /hospitals/3': () => json(200, hospital(3, 'City Hospital')),
      'DELETE /admin/hospitals/remove': () => new Response(null, { status: 204 }),
      'POST /admin/hospitals/add': () => json(201, hospital(9, 'New Hospital')),
    })
    const fetched = () => calls.filter((c) => c.path === '/hospitals/3').length
    const { result } = renderHookWithClient(() => ({ shown: useHospital(3), remove: useRemoveHospital(), add: useAddHospital() }))
    await waitFor(() => expect(result.current.shown.data?.name).toBe('City Hospital'))
    expect(fetched()).toBe(1)

    await act(() => result.current.remove.mutateAsync(3))
    await waitFor(() => expect(fetched()).toBe(2))

    await act(() => result.current.add.mutateAsync({ name: 'New Hospital', address: '9 Road', latitude: 1, longitude: 2 }))
    await waitFor(() => expect(fetched()).toBe(3))
  })
})
