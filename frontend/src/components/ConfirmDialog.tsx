import type { ReactNode } from 'react'
import { Dialog } from './Dialog'
import { S } from '@/strings'

/** The spec's removal dialog: 'Confirm Removal', 'This action cannot be undone.' */
export function ConfirmRemoval({
  question,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
}: {
  question: string
  confirmLabel: string
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <Dialog title={S.common.confirmRemoval} onClose={onCancel}>
      <p className="mb-2 font-medium text-red-700">{S.common.cannotUndo}</p>
      <p className="mb-6 text-slate-700">{question}</p>
      <div className="flex justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {S.common.cancel}
        </button>
        <button type="button" className="btn-primary" disabled={busy} onClick={onConfirm}>
          {busy ? S.common.removing : confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}

/** A yes/no question in a dialog, for actions other than removal. */
export function ConfirmAction({
  title,
  children,
  confirmLabel,
  busyLabel,
  cancelLabel = S.common.cancel,
  busy,
  onConfirm,
  onCancel,
}: {
  title: string
  children: ReactNode
  confirmLabel: string
  busyLabel: string
  cancelLabel?: string
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <Dialog title={title} onClose={onCancel}>
      <div className="mb-6 space-y-2 text-slate-700">{children}</div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className="btn-primary" disabled={busy} onClick={onConfirm}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}
