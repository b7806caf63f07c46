import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { Push } from '@/lib/push/usePush'
import type { PushView } from '@/lib/push/state'
import { PushStep } from './PushStep'

const push = (view: PushView): Push => ({ view, turnOn: vi.fn(), notNow: vi.fn() })
const step = (p: Push) => render(<PushStep push={p} id="h" title="Be told" text="Why it helps" askLabel="Notify me" onText="It is on." />)

describe('PushStep', () => {
  it('asks with its reason, opening the prompt only from its button, or lets it be', async () => {
    const p = push('ask')
    step(p)
    expect(screen.getByRole('region', { name: 'Be told' })).toHaveTextContent('Why it helps')
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }))
    expect(p.notNow).toHaveBeenCalledTimes(1)
    expect(p.turnOn).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Notify me' }))
    expect(p.turnOn).toHaveBeenCalledTimes(1)
  })

  it('says quietly that it is checking when a device already allowed subscribes by itself', () => {
    step(push('working'))
    expect(screen.getByRole('status')).toHaveTextContent('Checking alerts...')
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
  })

  it('after a tap, shows the button busy while the browser and the server answer', async () => {
    const p = push('ask')
    const { rerender } = step(p)
    await userEvent.click(screen.getByRole('button', { name: 'Notify me' }))
    rerender(<PushStep push={{ ...p, view: 'working' }} id="h" title="Be told" text="Why it helps" askLabel="Notify me" onText="It is on." />)
    expect(screen.getByRole('button', { name: 'Turning on...' })).toBeDisabled()
  })

  it('on: one line; failed: why, and try again', async () => {
    const { unmount } = step(push('on'))
    expect(screen.getByRole('status')).toHaveTextContent('It is on.')
    unmount()
    const p = push('failed')
    step(p)
    expect(screen.getByRole('alert')).toHaveTextContent('Alerts could not be turned on. Try again.')
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(p.turnOn).toHaveBeenCalledTimes(1)
  })

  it('nothing for a no, a block or no support', () => {
    for (const view of ['declined', 'denied', 'unsupported'] as const) {
      const { container, unmount } = step(push(view))
      expect(container).toBeEmptyDOMElement()
      unmount()
    }
  })
})
