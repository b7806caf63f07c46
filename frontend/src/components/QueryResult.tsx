import type { ReactNode } from 'react'
import { ErrorState, Spinner } from './Feedback'

/**
 * A list's loading, error and empty states, then the list: the spinner while the first
 * answer is awaited, the screen's error message with 'Try again', `empty` when
 * `isEmpty`, else the children.
 */
export function QueryResult({
  query,
  loadingLabel,
  errorMessage,
  isEmpty = false,
  empty = null,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error?: unknown; refetch: () => unknown }
  loadingLabel?: string
  errorMessage: string
  isEmpty?: boolean
  empty?: ReactNode
  children: ReactNode
}) {
  if (query.isPending) return <Spinner label={loadingLabel} />
  if (query.isError) return <ErrorState message={errorMessage} error={query.error} onRetry={() => query.refetch()} />
  return isEmpty ? empty : children
}
