import { useEffect, useState } from 'react'

export interface Flash {
  tone: 'success' | 'error'
  text: string
}

/** A banner message that clears itself after `ms` (spec 4: 3 s or 2.5 s). */
export function useFlash(ms: number) {
  const [flash, setFlash] = useState<Flash | null>(null)
  useEffect(() => {
    if (!flash) return
    const t = setTimeout(() => setFlash(null), ms)
    return () => clearTimeout(t)
  }, [flash, ms])
  return [flash, setFlash] as const
}
