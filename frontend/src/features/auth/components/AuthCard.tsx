import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Alert } from '@/components/Feedback'

/**
 * The sign-in and register screens' card: title, a line under it, a notice or the
 * error, the form, and a link to the other screen.
 */
export function AuthCard({
  title,
  intro,
  wide = false,
  notice,
  error,
  other,
  children,
}: {
  title: string
  intro: string
  /** The register form's two columns. */
  wide?: boolean
  /** Shown unless there is an error (e.g. why the last session ended). */
  notice?: string | null
  error: string | null
  other: { question: string; to: string; label: string }
  children: ReactNode
}) {
  return (
    <div className={`mx-auto ${wide ? 'max-w-xl' : 'max-w-md'}`}>
      <div className={`card ${wide ? 'p-6 sm:p-8' : 'p-8'}`}>
        <h1 className="mb-1 text-2xl font-bold">{title}</h1>
        <p className="mb-6 text-sm text-slate-600">{intro}</p>
        {notice && !error && <div className="mb-4"><Alert tone="info">{notice}</Alert></div>}
        {error && <div className="mb-4"><Alert tone="error">{error}</Alert></div>}
        {children}
        <p className="mt-6 text-center text-sm text-slate-600">
          {other.question}{' '}
          <Link to={other.to} className="font-semibold text-brand-700 hover:underline">{other.label}</Link>
        </p>
      </div>
    </div>
  )
}
