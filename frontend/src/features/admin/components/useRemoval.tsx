import { useState } from 'react'
import type { UseMutationResult } from '@tanstack/react-query'
import { ConfirmRemoval } from '@/components/ConfirmDialog'
import type { FlashOutcome } from '@/lib/useFlash'

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
  outcome,
}: {
  remove: UseMutationResult<void, Error, number>
  question: string
  confirmLabel: string
  removed: string
  failed: string
  /** The screen's banner (useFlash). */
  outcome: FlashOutcome
}) {
  const [removing, setRemoving] = useState<T | null>(null)
  const confirm = () => {
    if (!removing) return
    remove.mutate(removing.id, {
      ...outcome(removed, failed),
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
