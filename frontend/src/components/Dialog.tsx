import { useEffect, useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react'

/**
 * A modal dialog on the browser's own <dialog>, opened with showModal(): the rest of
 * the page is inert (Tab stays in the dialog, the page behind cannot be reached or
 * read), Escape asks to close it, focus starts on its first control (or on
 * `initialFocus`, where the first control would do something at a stray Enter) and
 * goes back to the control that opened it when it closes. Render it to open it;
 * unmount it to close.
 */
export function Dialog({
  title,
  onClose,
  children,
  initialFocus,
}: {
  title: string
  onClose: () => void
  children: ReactNode
  initialFocus?: RefObject<HTMLElement | null>
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const onCloseRef = useRef(onClose)
  useEffect(() => {
    onCloseRef.current = onClose
  })
  // Set while React takes the dialog away, so that closing it then is not a request to close.
  const unmounting = useRef(false)

  // A layout effect: its cleanup runs while the <dialog> is still in the document, so
  // close() can give focus back to the opener.
  useLayoutEffect(() => {
    const dialog = ref.current!
    unmounting.current = false
    dialog.showModal()
    initialFocus?.current?.focus()
    return () => {
      unmounting.current = true
      dialog.close()
    }
    // Opened once, when rendered: the ref is read then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-modal="true"
      // Escape: the owner decides (it unmounts the dialog).
      onCancel={(e) => {
        e.preventDefault()
        onCloseRef.current()
      }}
      // The browser may close it on its own (a second Escape in a row): keep React in
      // step. ('close' comes a task later: under StrictMode the dialog is open again.)
      onClose={() => {
        if (!unmounting.current && !ref.current?.open) onCloseRef.current()
      }}
      className="m-auto max-h-[90vh] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <h2 id={titleId} className="mb-4 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </dialog>
  )
}
