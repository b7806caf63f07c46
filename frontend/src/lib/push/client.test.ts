import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, waitFor } from '@testing-library/react'
import { signOut } from '@/lib/api'
import { saveSession } from '@/lib/session'
import { fakePush, SERVER_KEY } from '@/test/push'
import { json, renderHookWithClient, routeFetch } from '@/test/render'
import { base64UrlToBytes, subscribe } from './client'
import { isDeclined } from './device'
import { PUSHED_MESSAGE, RENEWED_MESSAGE } from './messages'
import { usePush } from './usePush'

const signIn = () =>
  saveSession({ token: 'tok-1', refreshToken: 'r-1', role: 'CREW', id: 5, user: { id: 5, username: 'crew1', email: '', phone: '', latitude: null, longitude: null, role: 'CREW', createdAt: '' } })

const server = () =>
  routeFetch({
    'GET /push/key': () => json(200, { publicKey: SERVER_KEY }),
    'PUT /push/subscription': () => new Response(null, { status: 204 }),
    'DELETE /push/subscription': () => new Response(null, { status: 204 }),
    'POST /auth/logout': () => new Response(null, { status: 204 }),
  })

afterEach(() => vi.unstubAllGlobals())

describe('base64UrlToBytes', () => {
  it('decodes the server key: 87 characters are the 65 bytes of a P-256 point', () => {
    const bytes = base64UrlToBytes(SERVER_KEY)
    expect(bytes.length).toBe(65)
    expect(bytes[0]).toBe(4)
    expect(Array.from(base64UrlToBytes('-_8'))).toEqual([0xfb, 0xff])
  })
})

describe('subscribe', () => {
  it("subscribes with the server's key and sends exactly the contract's body", async () => {
    const push = fakePush('granted')
    const { calls } = server()
    signIn()
    await subscribe()
    const options = push.subscribe.mock.calls[0]![0] as PushSubscriptionOptionsInit
    expect(options.userVisibleOnly).toBe(true)
    expect(Array.from(options.applicationServerKey as Uint8Array)).toEqual(Array.from(base64UrlToBytes(SERVER_KEY)))
    const put = calls.find((c) => c.method === 'PUT')!
    expect(put.path).toBe('/push/subscription')
    expect(put.body).toEqual({ endpoint: 'https://push.example/send/1', keys: { p256dh: 'BPpublic', auth: 'secret16' } })
    expect(put.headers.Authorization).toBe('Bearer tok-1')
  })

  it('keeps a subscription made with the same key, and replaces one made with another', async () => {
    const push = fakePush('granted')
    server()
    signIn()
    await subscribe()
    await subscribe()
    expect(push.subscribe).toHaveBeenCalledTimes(1)
    push.subscription = { ...push.subscription!, options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(65).buffer } } as PushSubscription
    await subscribe()
    expect(push.unsubscribe).toHaveBeenCalledTimes(1)
    expect(push.subscribe).toHaveBeenCalledTimes(2)
  })

  it('fails when the server refuses the subscription', async () => {
    fakePush('granted')
    routeFetch({ 'GET /push/key': () => json(200, { publicKey: SERVER_KEY }), 'PUT /push/subscription': () => json(400, { message: 'bad', field: 'keys.p256dh' }) })
    signIn()
    await expect(subscribe()).rejects.toMatchObject({ status: 400, field: 'keys.p256dh' })
  })
})

describe('sign-out', () => {
  it('takes the subscription back from the server with the ending session, and from the browser', async () => {
    const push = fakePush('granted')
    const { calls } = server()
    signIn()
    await subscribe()
    signOut()
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/push/subscription')).toBe(true))
    const del = calls.find((c) => c.method === 'DELETE' && c.path === '/push/subscription')!
    expect(del.path).toBe('/push/subscription')
    expect(del.body).toEqual({ endpoint: 'https://push.example/send/1' })
    expect(del.headers.Authorization).toBe('Bearer tok-1')
    await waitFor(() => expect(push.unsubscribe).toHaveBeenCalled())
  })

  it('sends no DELETE from a device that never subscribed', async () => {
    fakePush('default')
    const { calls } = server()
    signIn()
    signOut()
    // The logout call goes out after the DELETE would have: once it is there, no DELETE came.
    await waitFor(() => expect(calls.some((c) => c.path === '/auth/logout')).toBe(true))
    expect(calls.filter((c) => c.method === 'DELETE' && c.path === '/push/subscription')).toEqual([])
  })
})

describe('usePush', () => {
  it('never asks by itself; asked, it subscribes and is on', async () => {
    const push = fakePush('default')
    const { calls } = server()
    signIn()
    const { result } = renderHookWithClient(() => usePush('crew'))
    expect(result.current.view).toBe('ask')
    expect(push.requestPermission).not.toHaveBeenCalled()
    act(() => result.current.turnOn())
    await waitFor(() => expect(result.current.view).toBe('on'))
    expect(push.requestPermission).toHaveBeenCalledTimes(1)
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1)
  })

  it('a refusal is kept: not asked again, on this screen or after a reload', async () => {
    const push = fakePush('default')
    push.answer = 'default' // the prompt closed without an answer
    server()
    const first = renderHookWithClient(() => usePush('trip'))
    act(() => first.result.current.turnOn())
    await waitFor(() => expect(first.result.current.view).toBe('declined'))
    expect(isDeclined('trip')).toBe(true)
    first.unmount()
    expect(renderHookWithClient(() => usePush('trip')).result.current.view).toBe('declined')
    // Each screen asks in its own words: the crew's step is still to come.
    expect(renderHookWithClient(() => usePush('crew')).result.current.view).toBe('ask')
  })

  it('blocked in the browser is denied; "Not now" is declined', async () => {
    const push = fakePush('default')
    push.answer = 'denied'
    server()
    const { result } = renderHookWithClient(() => usePush('admin'))
    act(() => result.current.notNow())
    expect(result.current.view).toBe('declined')
    act(() => result.current.turnOn())
    await waitFor(() => expect(result.current.view).toBe('denied'))
  })

  it('already allowed: subscribes on the visit without a prompt, and again when the worker says it was renewed', async () => {
    const push = fakePush('granted')
    const { calls } = server()
    signIn()
    const { result } = renderHookWithClient(() => usePush('crew'))
    await waitFor(() => expect(result.current.view).toBe('on'))
    expect(push.requestPermission).not.toHaveBeenCalled()
    act(() => push.post({ type: RENEWED_MESSAGE }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2))
  })

  it('a failed subscription says so, and is not on', async () => {
    fakePush('granted')
    routeFetch({ 'GET /push/key': () => json(503, {}) })
    const { result } = renderHookWithClient(() => usePush('crew'))
    await waitFor(() => expect(result.current.view).toBe('failed'))
  })

  it('without the Push API it is unsupported', () => {
    server()
    expect(renderHookWithClient(() => usePush('crew')).result.current.view).toBe('unsupported')
  })
})

describe('a push while the app is open', () => {
  it('makes the screens fetch at once', async () => {
    const push = fakePush('default')
    const { client } = renderHookWithClient(() => null)
    const invalidate = vi.spyOn(client, 'invalidateQueries')
    act(() => push.post({ type: 'something else' }))
    expect(invalidate).not.toHaveBeenCalled()
    act(() => push.post({ type: PUSHED_MESSAGE, kind: 'JOB' }))
    expect(invalidate).toHaveBeenCalledTimes(1)
  })
})
