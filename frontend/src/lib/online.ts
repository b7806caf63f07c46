import { onlineManager } from '@tanstack/react-query'
import { useSyncExternalStore } from 'react'

/**
 * Whether to tell the person they are offline. TanStack Query's onlineManager (which
 * pauses queries and mutations while offline and resumes them after) learns of it from
 * the browser's online/offline events only, so a page opened with no connection starts
 * out "online" there; navigator.onLine covers that case. Only what is shown uses
 * navigator.onLine: requests never wait on it, as it can be wrong (TanStack Query 5
 * stopped trusting it for that reason), and a wrong "offline" must never hold back an
 * emergency request.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (notify) => onlineManager.subscribe(notify),
    () => onlineManager.isOnline() && navigator.onLine !== false,
    () => true,
  )
}
