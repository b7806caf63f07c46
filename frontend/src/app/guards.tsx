import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { isAdmin, isCrew, useSession } from '@/lib/session'

/**
 * Signed-out visitors go to /login. Crew have their own screen: they are sent to /crew
 * from the screens of users (all but those marked `crewToo`, such as the profile).
 */
export function RequireAuth({ children, crewToo = false }: { children: ReactNode; crewToo?: boolean }) {
  const session = useSession()
  const location = useLocation()
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />
  if (!crewToo && isCrew(session.user)) return <Navigate to="/crew" replace />
  return children
}

/** Admin-only screens: signed out → /login, crew → /crew, anyone else not admin → /. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession()
  if (!session) return <Navigate to="/login" replace />
  if (isCrew(session.user)) return <Navigate to="/crew" replace />
  if (!isAdmin(session.user)) return <Navigate to="/" replace />
  return children
}

/** The crew's screen: signed out → /login, anyone not crew → /. */
export function RequireCrew({ children }: { children: ReactNode }) {
  const session = useSession()
  if (!session) return <Navigate to="/login" replace />
  if (!isCrew(session.user)) return <Navigate to="/" replace />
  return children
}

/** Public screens made for the public (the home page): crew go to /crew, everyone else stays. */
export function SendCrewHome({ children }: { children: ReactNode }) {
  const session = useSession()
  if (isCrew(session?.user)) return <Navigate to="/crew" replace />
  return children
}
