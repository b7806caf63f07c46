import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode, useRef, useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { Dialog } from './Dialog'

function Harness({ onClosed }: { onClosed?: () => void }) {
  const [open, setOpen] = useState(false)
  const close = () => {
    setOpen(false)
    onClosed?.()
  }
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>Open</button>
      {open && (
        <Dialog title="Confirm Removal" onClose={close}>
          <button type="button" onClick={close}>Cancel</button>
          <button type="button">Remove</button>
        </Dialog>
      )}
    </>
  )
}

// The focus trap itself (the page behind is inert) is the browser's: see e2e/a11y.spec.ts.
describe('Dialog', () => {
  it('is a labelled modal <dialog> opened with showModal, focus on its first control', async () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, 'showModal')
    render(<Harness />)
    await userEvent.click(screen.getByRole('button', { name: 'Open' }))
    const dialog = screen.getByRole('dialog', { name: 'Confirm Removal' })
    expect(dialog.tagName).toBe('DIALOG')
    expect(dialog).toHaveAttribute('open')
    expect(dialog).toHaveAttribute('aria-modal', 'true')
    expect(showModal).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    showModal.mockRestore()
  })

  it('starts on initialFocus when given, not on a first control that would act', async () => {
    function Choices() {
      const close = useRef<HTMLButtonElement>(null)
      return (
        <Dialog title="Reassign" onClose={() => {}} initialFocus={close}>
          <button type="button">Send PB-40</button>
          <button ref={close} type="button">Close</button>
        </Dialog>
      )
    }
    render(<Choices />)
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus()
  })

  it('closes on Escape and gives focus back to the opener', async () => {
    const onClosed = vi.fn()
    render(<Harness onClosed={onClosed} />)
    const opener = screen.getByRole('button', { name: 'Open' })
    await userEvent.click(opener)
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(onClosed).toHaveBeenCalledTimes(1)
    expect(opener).toHaveFocus()
  })

  it('gives focus back when its owner closes it', async () => {
    render(<Harness />)
    const opener = screen.getByRole('button', { name: 'Open' })
    await userEvent.click(opener)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(opener).toHaveFocus()
  })

  it('tells its owner when the browser closes it by itself', async () => {
    const onClosed = vi.fn()
    render(<Harness onClosed={onClosed} />)
    await userEvent.click(screen.getByRole('button', { name: 'Open' }))
    // What Chromium does on a second Escape in a row without a click in between.
    ;(screen.getByRole('dialog') as HTMLDialogElement).close()
    expect(onClosed).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('stays open under StrictMode (effects run twice)', async () => {
    render(
      <StrictMode>
        <Harness />
      </StrictMode>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Open' }))
    expect(screen.getByRole('dialog', { name: 'Confirm Removal' })).toHaveAttribute('open')
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus()
  })
})
