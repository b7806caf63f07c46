import { Dialog } from './Dialog'

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
    <Dialog title="Confirm Removal" onClose={onCancel}>
      <p className="mb-2 font-medium text-red-700">This action cannot be undone.</p>
      <p className="mb-6 text-slate-700">{question}</p>
      <div className="flex justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn-primary" disabled={busy} onClick={onConfirm}>
          {busy ? 'Removing...' : confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}
