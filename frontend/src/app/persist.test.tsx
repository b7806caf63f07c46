import { act, render, waitFor } from '@testing-library/react'
import { dehydrate, QueryClient, useIsRestoring } from '@tanstack/react-query'
import { useEffect } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { adminKeys } from '@/features/admin/api/keys'
import { bookingKeys } from '@/features/booking/api/keys'
import { hospitalKeys } from '@/features/hospitals/api/keys'
import { profileKeys } from '@/features/profile/api/keys'
import { ApiError } from '@/lib/api'
import { clearSession, saveSession } from '@/lib/session'
import { demoUser, sharedTrip, tracking } from '@/test/fixtures'
import { createTripPersister, TRIP_CACHE_KEY, TRIP_CACHE_MAX_AGE_MS, tripPersistOptions } from './persist'
import { AppProviders, createQueryClient } from './providers'

const signIn = (id: number) => saveSession({ token: `t${id}`, user: { ...demoUser, id }, role: 'USER', id })

/** The query keys of what is stored on the device now. */
function storedKeys(): unknown[][] | null {
  const stored = localStorage.getItem(TRIP_CACHE_KEY)
  return stored === null ? null : (JSON.parse(stored) as { clientState: { queries: { queryKey: unknown[] }[] } }).clientState.queries.map((q) => q.queryKey)
}

const dehydrated = (client: QueryClient) => dehydrate(client, tripPersistOptions(createTripPersister()).dehydrateOptions)

/**
 * Tells when the provider has stopped restoring, from an effect: the provider starts
 * saving in an effect of that same commit, and a child's effects run in the same flush, so
 * by then a change to the cache is saved. (Waiting for a text shown in that commit raced:
 * on a busy machine the test went on before the provider's effect ran, nothing was saved.)
 */
function Restored({ onRestored }: { onRestored: () => void }) {
  const restoring = useIsRestoring()
  useEffect(() => {
    if (!restoring) onRestored()
  }, [restoring, onRestored])
  return null
}

/**
 * The app's providers with the device's persistence (as main.tsx mounts them), saving at
 * once; resolves once what was kept is read back and saving has started.
 */
async function mountApp(client = createQueryClient()) {
  let restored = false
  const view = render(
    <AppProviders client={client} persister={createTripPersister(localStorage, 0)}>
      <Restored onRestored={() => (restored = true)} />
    </AppProviders>,
  )
  await waitFor(() => expect(restored).toBe(true))
  return { ...view, client }
}

describe('the trips kept on the device', () => {
  it('keeps the trip queries only: a booking\'s trip and a shared trip, not history, profile, admin lists or hospitals', () => {
    const client = new QueryClient()
    const rows: unknown[] = []
    client.setQueryData(bookingKeys.track(7), tracking())
    client.setQueryData(bookingKeys.shared('tok'), sharedTrip())
    client.setQueryData(bookingKeys.history(2), rows)
    client.setQueryData(profileKeys.detail(2), demoUser)
    client.setQueryData(adminKeys.bookings(0, 10), rows)
    client.setQueryData(hospitalKeys.all, rows)
    client.getMutationCache().build(client, { mutationFn: async () => 1 }, { isPaused: true } as never)
    const state = dehydrated(client)
    expect(state.queries.map((q) => q.queryKey)).toEqual([bookingKeys.track(7), bookingKeys.shared('tok')])
    expect(state.mutations).toEqual([])
  })

  it('keeps a trip whose refetch failed on the network (the case it is for), not one the server refused, nor one with no answer', () => {
    const client = new QueryClient()
    client.setQueryData(bookingKeys.track(1), tracking())
    client.setQueryData(bookingKeys.track(2), tracking())
    client.setQueryData(bookingKeys.shared('gone'), sharedTrip())
    const fail = (key: readonly unknown[], error: ApiError) => client.getQueryCache().find({ queryKey: key })!.setState({ status: 'error', error })
    fail(bookingKeys.track(1), new ApiError('Network Error', 0, 'network'))
    fail(bookingKeys.track(2), new ApiError('Forbidden', 403, 'http'))
    fail(bookingKeys.shared('gone'), new ApiError('Not found', 404, 'http'))
    client.getQueryCache().build(client, { queryKey: bookingKeys.track(3) })
    expect(dehydrated(client).queries.map((q) => q.queryKey)).toEqual([bookingKeys.track(1)])
  })

  it('brings the trip back after a reload for the same account (signed in after the app opened), with the time of its answer', async () => {
    const answeredAt = Date.now() - 40_000
    const first = await mountApp()
    act(() => signIn(2))
    act(() => first.client.setQueryData(bookingKeys.track(7), tracking({ bookingId: 7 }), { updatedAt: answeredAt }))
    await waitFor(() => expect(storedKeys()).toEqual([bookingKeys.track(7)]))
    first.unmount()

    const reloaded = await mountApp()
    await waitFor(() => expect(reloaded.client.getQueryData(bookingKeys.track(7))).toMatchObject({ bookingId: 7 }))
    expect(reloaded.client.getQueryState(bookingKeys.track(7))!.dataUpdatedAt).toBe(answeredAt)
  })

  it('drops the trip on sign-out, and never shows one kept for another account', async () => {
    signIn(2)
    const app = await mountApp()
    act(() => app.client.setQueryData(bookingKeys.track(7), tracking()))
    await waitFor(() => expect(storedKeys()).toEqual([bookingKeys.track(7)]))

    act(() => clearSession())
    // Cleared at once; a save still to come writes no trip back.
    expect(storedKeys() ?? []).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(storedKeys() ?? []).toEqual([])
    expect(app.client.getQueryData(bookingKeys.track(7))).toBeUndefined()
    app.unmount()

    // Kept by account 2 (its tab killed, say), then account 3 signs in on this phone.
    signIn(2)
    const before = await mountApp()
    act(() => before.client.setQueryData(bookingKeys.track(8), tracking()))
    await waitFor(() => expect(storedKeys()).toEqual([bookingKeys.track(8)]))
    before.unmount()
    localStorage.setItem('user', JSON.stringify({ ...demoUser, id: 3 }))
    signIn(3)
    const other = await mountApp()
    await waitFor(() => expect(localStorage.getItem(TRIP_CACHE_KEY)).toBeNull())
    expect(other.client.getQueryData(bookingKeys.track(8))).toBeUndefined()
  })

  describe('two tabs', () => {
    /** A tab: its own query client and persister over the one localStorage. */
    function tab() {
      const client = new QueryClient()
      const persister = createTripPersister(localStorage, 0)
      // The persister writes on a timer (its throttle, here 0 ms): wait for it.
      const save = async () => {
        void persister.persistClient({ timestamp: Date.now(), buster: '', clientState: dehydrated(client) })
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      return { client, save, persister }
    }

    /** The browser's notice to the other tabs of a write to the kept cache (jsdom sends none). */
    const announceWrite = () =>
      window.dispatchEvent(new StorageEvent('storage', { key: TRIP_CACHE_KEY, newValue: localStorage.getItem(TRIP_CACHE_KEY), storageArea: localStorage }))

    it('each write keeps the trips the other tab kept, so a reload finds its own whichever wrote last', async () => {
      signIn(2)
      const own = tab()
      const shared = tab()
      own.client.setQueryData(bookingKeys.track(7), tracking({ bookingId: 7 }))
      await own.save()
      shared.client.setQueryData(bookingKeys.shared('tok'), sharedTrip())
      await shared.save()
      expect(storedKeys()).toEqual([bookingKeys.shared('tok'), bookingKeys.track(7)])
      // The same trip in both: the writer's own answer, not the other's copy.
      own.client.setQueryData(bookingKeys.track(7), tracking({ bookingId: 7, etaMinutes: 2 }))
      await own.save()
      await shared.save()
      const kept = JSON.parse(localStorage.getItem(TRIP_CACHE_KEY)!) as { clientState: { queries: { queryKey: unknown[]; state: { data: { etaMinutes: number } } }[] } }
      expect(kept.clientState.queries.filter((q) => q.queryKey[1] === 'track').map((q) => q.state.data.etaMinutes)).toEqual([2])
    })

    it('a trip a tab no longer keeps goes; another account’s or a day-old trip is never added', async () => {
      signIn(2)
      const one = tab()
      const two = tab()
      one.client.setQueryData(bookingKeys.track(7), tracking())
      await one.save()
      two.client.setQueryData(bookingKeys.track(8), tracking())
      await two.save()
      // Tab one's trip is refused now (say the booking became someone else's to see): it is not kept.
      one.client.getQueryCache().find({ queryKey: bookingKeys.track(7) })!.setState({ status: 'error', error: new ApiError('Forbidden', 403, 'http') })
      await one.save()
      expect(storedKeys()).toEqual([bookingKeys.track(8)])

      // A day-old trip of the other tab is dropped at the next write.
      two.client.setQueryData(bookingKeys.track(8), tracking(), { updatedAt: Date.now() - TRIP_CACHE_MAX_AGE_MS - 1 })
      await two.save()
      const three = tab()
      three.client.setQueryData(bookingKeys.track(9), tracking())
      await three.save()
      expect(storedKeys()).toEqual([bookingKeys.track(9)])

      // Written while account 2 was signed in: account 3's tab does not carry it on.
      signIn(3)
      const other = tab()
      other.client.setQueryData(bookingKeys.track(10), tracking())
      await other.save()
      expect(storedKeys()).toEqual([bookingKeys.track(10)])
    })

    const stops: (() => void)[] = []
    afterEach(() => stops.splice(0).forEach((stop) => stop()))

    /** A tab that follows the other tabs' writes and has written trip 7. */
    async function followingTabWithTrip7() {
      const own = tab()
      stops.push(own.persister.followOtherTabs())
      own.client.setQueryData(bookingKeys.track(7), tracking({ bookingId: 7 }))
      await own.save()
      return own
    }

    /** Another tab's write that raced the last one: it read the cache before it, and writes its one trip. */
    async function racingWrite(key: readonly unknown[], data: unknown) {
      localStorage.removeItem(TRIP_CACHE_KEY)
      const other = tab()
      other.client.setQueryData(key, data)
      await other.save()
      return other
    }

    it('two writes at the same instant: the tab whose trip the other dropped writes it back when told of that write', async () => {
      signIn(2)
      await followingTabWithTrip7()
      const shared = await racingWrite(bookingKeys.shared('tok'), sharedTrip())
      expect(storedKeys()).toEqual([bookingKeys.shared('tok')])
      announceWrite()
      expect(storedKeys()).toEqual([bookingKeys.track(7), bookingKeys.shared('tok')])
      // A write that lacks none of this tab's trips is left as it is.
      await shared.save()
      const kept = localStorage.getItem(TRIP_CACHE_KEY)
      expect(storedKeys()).toEqual([bookingKeys.shared('tok'), bookingKeys.track(7)])
      announceWrite()
      expect(localStorage.getItem(TRIP_CACHE_KEY)).toBe(kept)
    })

    it('the app follows the other tabs while it is open, and stops when it closes', async () => {
      signIn(2)
      const app = await mountApp()
      act(() => app.client.setQueryData(bookingKeys.track(7), tracking({ bookingId: 7 })))
      await waitFor(() => expect(storedKeys()).toEqual([bookingKeys.track(7)]))
      await racingWrite(bookingKeys.track(8), tracking())
      announceWrite()
      expect(storedKeys()).toEqual([bookingKeys.track(7), bookingKeys.track(8)])
      app.unmount()
      await racingWrite(bookingKeys.track(8), tracking())
      announceWrite()
      expect(storedKeys()).toEqual([bookingKeys.track(8)])
    })

    it('puts nothing back once its trips were removed (the person changed), nor into another account’s cache', async () => {
      signIn(2)
      const own = await followingTabWithTrip7()
      // Written by another account's tab (this one not told of the sign-in yet).
      const foreign = JSON.stringify({ buster: 'another|3', timestamp: Date.now(), clientState: { mutations: [], queries: [] } })
      localStorage.setItem(TRIP_CACHE_KEY, foreign)
      announceWrite()
      expect(localStorage.getItem(TRIP_CACHE_KEY)).toBe(foreign)

      await own.save()
      // As AppProviders does when the signed-in person changes.
      await own.persister.removeClient()
      await racingWrite(bookingKeys.track(9), tracking())
      announceWrite()
      expect(storedKeys()).toEqual([bookingKeys.track(9)])
    })
  })
})
