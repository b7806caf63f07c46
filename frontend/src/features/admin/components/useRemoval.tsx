import { useState } from 'react'
import type { UseMutationResult } from '@tanstack/react-query'
import { ConfirmRemoval } from '@/components/ConfirmDialog'
import { messageOf } from '@/lib/api'
import type { Flash } from '@/lib/useFlash'

/**
 * Removing one item after the spec's confirmation: `ask(item)` opens the dialog (render
 * `dialog`); confirming sends `remove` and says how it went in the screen's banner.
 */
export function useRemoval<T extends { id: number }>({
  remove,
  question,
  confirmLabel,
  removed,
  failed,
  onFlash,
}: {
  remove: UseMutationResult<void, Error, number>
  question: string
  confirmLabel: string
  removed: string
  failed: string
  onFlash: (flash: Flash) => void
}) {
  const [removing, setRemoving] = useState<T | null>(null)
  const confirm = () => {
    if (!removing) return
    remove.mutate(removing.id, {
      onSuccess: () => onFlash({ tone: 'success', text: removed }),
      onError: (err) => onFlash({ tone: 'error', text: messageOf(err, failed) }),
      onSettled: () => setRemoving(null),
    })
  }
  const dialog = removing && (
    <ConfirmRemoval
      question={question}
      confirmLabel={confirmLabel}
      busy={remove.isPending}
      onConfirm={confirm}
      onCancel={() => setRemoving(null)}
    />
  )
  return { ask: setRemoving, dialog }
}
