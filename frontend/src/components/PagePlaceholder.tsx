import { Link } from 'react-router'
import { S } from '@/strings'

/**
 * A screen whose feature has not landed yet. It says plainly what the screen will
 * be, so a link to it is never a dead end.
 */
export function PagePlaceholder({ title, purpose }: { title: string; purpose: string }) {
  return (
    <div className="card mx-auto max-w-xl p-8 text-center">
      <p className="mb-2 inline-flex rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-amber-900">
        {S.common.comingSoon}
      </p>
      <h1 className="mb-2 text-2xl font-bold">{title}</h1>
      <p className="mb-6 text-slate-600">{purpose}</p>
      <Link to="/" className="btn-secondary">
        {S.common.backToHome}
      </Link>
    </div>
  )
}
