import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { isAdmin, useSession } from '@/lib/session'

/** Signed-out visitors go to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession()
  const location = useLocation()
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />
  return children
}

/** Admin-only screens: signed out → /login, signed in but not admin → /. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession()
  if (!session) return <Navigate to="/login" replace />
  if (!isAdmin(session.user)) return <Navigate to="/" replace />
  return children
}
