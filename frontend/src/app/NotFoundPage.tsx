import { Link } from 'react-router'
import { S } from '@/strings'

export function NotFoundPage() {
  return (
    <div className="card mx-auto max-w-md p-8 text-center">
      <h1 className="mb-2 text-2xl font-bold">{S.notFound.title}</h1>
      <p className="mb-4 text-slate-600">{S.notFound.text}</p>
      <Link to="/" className="btn-primary">
        {S.notFound.back}
      </Link>
    </div>
  )
}
