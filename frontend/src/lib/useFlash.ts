import { useEffect, useState } from 'react'
import { messageOf } from './api'

export interface Flash {
  tone: 'success' | 'error'
  text: string
}

/** Mutation callbacks that tell the outcome in the banner. */
export type FlashOutcome = (
  done: string,
  failed: string,
) => { onSuccess: () => void; onError: (error: unknown) => void }

/**
 * A banner message that clears itself after `ms` (3 s or 2.5 s: docs/requirements.md, "Booking"). `outcome(done,
 * failed)` gives a mutation's onSuccess/onError: `done`, or the server's reason for a
 * refusal (else `failed`).
 */
export function useFlash(ms: number) {
  const [flash, setFlash] = useState<Flash | null>(null)
  useEffect(() => {
    if (!flash) return
    const t = setTimeout(() => setFlash(null), ms)
    return () => clearTimeout(t)
  }, [flash, ms])
  const outcome: FlashOutcome = (done, failed) => ({
    onSuccess: () => setFlash({ tone: 'success', text: done }),
    onError: (error) => setFlash({ tone: 'error', text: messageOf(error, failed) }),
  })
  return [flash, setFlash, outcome] as const
}
