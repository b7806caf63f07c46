import type { ReactNode } from 'react'
import { ApiError, messageOf } from '@/lib/api'
import { S } from '@/strings'

type Tone = 'error' | 'success' | 'info' | 'warning'

const tones: Record<Tone, string> = {
  error: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-green-200 bg-green-50 text-green-800',
  info: 'border-blue-200 bg-blue-50 text-blue-800',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
}

export function Alert({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border px-4 py-3 text-sm ${tones[tone]}`}
    >
      {children}
    </div>
  )
}

export function Spinner({ label = S.common.loading }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-12 text-slate-500">
      <span className="h-6 w-6 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" />
      <span>{label}</span>
    </div>
  )
}

/** The screen's message, and how long to wait when the cause was a rate limit (429). */
export function ErrorState({ message, error, onRetry }: { message: string; error?: unknown; onRetry?: () => void }) {
  const limited = error instanceof ApiError && error.status === 429
  return (
    <div className="card flex flex-col items-center gap-3 p-8 text-center">
      <p role="alert" className="text-red-700">
        {message}
        {limited && <span className="mt-1 block text-sm">{messageOf(error, message)}</span>}
      </p>
      {onRetry && (
        <button type="button" className="btn-secondary" onClick={onRetry}>
          {S.emergency.tryAgain}
        </button>
      )}
    </div>
  )
}

/** Nothing to show: a title, what it means (`text`), and what to do (children). */
export function EmptyState({ title, text, children }: { title: string; text?: ReactNode; children?: ReactNode }) {
  return (
    <div className="card flex flex-col items-center gap-3 p-10 text-center">
      <h2 className="text-lg font-semibold text-slate-800">{title}</h2>
      {text && <p className="text-slate-600">{text}</p>}
      {children}
    </div>
  )
}
