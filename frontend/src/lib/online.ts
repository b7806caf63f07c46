import { onlineManager } from '@tanstack/react-query'
import { useSyncExternalStore } from 'react'

/**
 * Whether the browser says it is online: TanStack Query's own view of it (the one that
 * pauses queries and mutations while offline and resumes them after), so what the
 * screens say and what the requests do always agree.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (notify) => onlineManager.subscribe(notify),
    () => onlineManager.isOnline(),
    () => true,
  )
}
