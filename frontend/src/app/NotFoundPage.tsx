import { Link } from 'react-router'

export function NotFoundPage() {
  return (
    <div className="card mx-auto max-w-md p-8 text-center">
      <h1 className="mb-2 text-2xl font-bold">Page not found</h1>
      <p className="mb-4 text-slate-600">The page you are looking for does not exist.</p>
      <Link to="/" className="btn-primary">
        Back to home
      </Link>
    </div>
  )
}
