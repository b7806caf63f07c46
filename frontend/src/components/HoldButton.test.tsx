import { act, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HOLD_MS, HoldButton } from './HoldButton'

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }))
afterEach(() => vi.useRealTimers())

function renderHold(props: { disabled?: boolean; busy?: boolean } = {}) {
  const onConfirm = vi.fn()
  render(
    <HoldButton
      label="Hold to send"
      holdingLabel="Keep holding..."
      busyLabel="Sending..."
      hint="Press and hold"
      confirmLabel="Yes, send now"
      cancelLabel="Not now"
      onConfirm={onConfirm}
      {...props}
    />,
  )
  return { onConfirm, button: screen.getByRole('button') }
}

const progress = () => screen.getByTestId('hold-progress').style.transform

describe('HoldButton', () => {
  it('acts once when held for the whole time, filling up meanwhile', () => {
    const { onConfirm, button } = renderHold()
    expect(button).toHaveAccessibleName('Hold to send')
    expect(button).toHaveAccessibleDescription('Press and hold')
    fireEvent.pointerDown(button, { button: 0, pointerId: 1 })
    expect(button).toHaveTextContent('Keep holding...')
    expect(progress()).toBe('scaleX(1)')
    act(() => vi.advanceTimersByTime(HOLD_MS - 1))
    expect(onConfirm).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(1))
    expect(onConfirm).toHaveBeenCalledTimes(1)
    fireEvent.pointerUp(button)
    act(() => vi.advanceTimersByTime(HOLD_MS * 2))
    expect(onConfirm).toHaveBeenCalledTimes(1)
  })

  it('does nothing when let go early, scrolled away or tapped', async () => {
    const { onConfirm, button } = renderHold()
    fireEvent.pointerDown(button, { button: 0, pointerId: 1 })
    act(() => vi.advanceTimersByTime(HOLD_MS - 200))
    fireEvent.pointerUp(button)
    expect(progress()).toBe('scaleX(0)')
    fireEvent.pointerDown(button, { button: 0, pointerId: 1 })
    fireEvent.pointerCancel(button)
    act(() => vi.advanceTimersByTime(HOLD_MS * 2))
    // A plain tap (a click with a press behind it) neither sends nor asks.
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(button)
    act(() => vi.advanceTimersByTime(HOLD_MS * 2))
    expect(onConfirm).not.toHaveBeenCalled()
    expect(screen.queryByRole('button', { name: 'Yes, send now' })).not.toBeInTheDocument()
  })

  it('holds with Space or Enter held down; a short press does nothing', () => {
    const { onConfirm, button } = renderHold()
    button.focus()
    fireEvent.keyDown(button, { key: 'Enter' })
    act(() => vi.advanceTimersByTime(300))
    fireEvent.keyUp(button, { key: 'Enter' })
    act(() => vi.advanceTimersByTime(HOLD_MS))
    expect(onConfirm).not.toHaveBeenCalled()
    fireEvent.keyDown(button, { key: ' ' })
    // Key repeat while held does not start it again.
    act(() => vi.advanceTimersByTime(500))
    fireEvent.keyDown(button, { key: ' ', repeat: true })
    act(() => vi.advanceTimersByTime(HOLD_MS - 500))
    expect(onConfirm).toHaveBeenCalledTimes(1)
    fireEvent.keyUp(button, { key: ' ' })
  })

  it('moving focus away lets go', () => {
    const { onConfirm, button } = renderHold()
    fireEvent.keyDown(button, { key: ' ' })
    fireEvent.blur(button)
    act(() => vi.advanceTimersByTime(HOLD_MS * 2))
    expect(onConfirm).not.toHaveBeenCalled()
  })

  it('a screen reader’s click (no press) asks with a second button instead', async () => {
    const { onConfirm, button } = renderHold()
    act(() => vi.advanceTimersByTime(1000))
    fireEvent.click(button, { detail: 0 })
    const yes = screen.getByRole('button', { name: 'Yes, send now' })
    expect(yes).toHaveFocus()
    expect(onConfirm).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }))
    expect(screen.queryByRole('button', { name: 'Yes, send now' })).not.toBeInTheDocument()
    fireEvent.click(button, { detail: 0 })
    fireEvent.click(screen.getByRole('button', { name: 'Yes, send now' }))
    expect(onConfirm).toHaveBeenCalledTimes(1)
  })

  it('focus passing through is no press: a screen reader’s click right after still asks', () => {
    const { onConfirm, button } = renderHold()
    act(() => vi.advanceTimersByTime(1000))
    // Tab through the button (or a screen reader moving on), then its click at once.
    fireEvent.focus(button)
    fireEvent.blur(button)
    fireEvent.click(button, { detail: 0 })
    expect(screen.getByRole('button', { name: 'Yes, send now' })).toHaveFocus()
    expect(onConfirm).not.toHaveBeenCalled()
  })

  it('cannot be held while disabled or busy', () => {
    const { onConfirm } = renderHold({ busy: true })
    const button = screen.getByRole('button', { name: 'Sending...' })
    expect(button).toBeDisabled()
    fireEvent.pointerDown(button, { button: 0, pointerId: 1 })
    act(() => vi.advanceTimersByTime(HOLD_MS * 2))
    expect(onConfirm).not.toHaveBeenCalled()
  })
})
