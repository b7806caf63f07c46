import { describe, expect, it } from 'vitest'
import { pushView, ringsWhenLocked } from './state'

describe('pushView', () => {
  it('asks only someone never asked, and never after a no', () => {
    expect(pushView({ permission: 'default', declined: false, sync: 'idle' })).toBe('ask')
    expect(pushView({ permission: 'default', declined: true, sync: 'idle' })).toBe('declined')
    expect(pushView({ permission: 'denied', declined: false, sync: 'idle' })).toBe('denied')
  })

  it('no Push API is unsupported whatever else', () => {
    expect(pushView({ permission: 'unsupported', declined: false, sync: 'done' })).toBe('unsupported')
  })

  it('allowed is on only once the server has the subscription', () => {
    expect(pushView({ permission: 'granted', declined: false, sync: 'idle' })).toBe('working')
    expect(pushView({ permission: 'granted', declined: false, sync: 'working' })).toBe('working')
    expect(pushView({ permission: 'granted', declined: false, sync: 'done' })).toBe('on')
    expect(pushView({ permission: 'granted', declined: true, sync: 'failed' })).toBe('failed')
  })

  it('the crew falls back to the open screen in every state but on', () => {
    const views = ['unsupported', 'denied', 'ask', 'declined', 'working', 'on', 'failed'] as const
    expect(views.filter(ringsWhenLocked)).toEqual(['on'])
  })
})
