import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { isAdmin, isCrew, isHospital, ownScreen, useSession } from '@/lib/session'

/**
 * Signed-out visitors go to /login. Crew and hospital staff have a screen of their own
 * (/crew, /hospital): they are sent there from the screens of users (all but those
 * marked `crewToo`, such as the profile, which every signed-in person has).
 */
export function RequireAuth({ children, crewToo = false }: { children: ReactNode; crewToo?: boolean }) {
  const session = useSession()
  const location = useLocation()
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />
  const own = ownScreen(session.user)
  if (!crewToo && own) return <Navigate to={own} replace />
  return children
}

/** Admin-only screens: signed out → /login, crew and hospital staff → their screen, anyone else not admin → /. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession()
  if (!session) return <Navigate to="/login" replace />
  const own = ownScreen(session.user)
  if (own) return <Navigate to={own} replace />
  if (!isAdmin(session.user)) return <Navigate to="/" replace />
  return children
}

/** The crew's screen: signed out → /login, anyone not crew → / (hospital staff on to theirs). */
export function RequireCrew({ children }: { children: ReactNode }) {
  const session = useSession()
  if (!session) return <Navigate to="/login" replace />
  if (!isCrew(session.user)) return <Navigate to={ownScreen(session.user) ?? '/'} replace />
  return children
}

/** The incoming board: signed out → /login, anyone not hospital staff → / (crew on to theirs). */
export function RequireHospital({ children }: { children: ReactNode }) {
  const session = useSession()
  const location = useLocation()
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname }} />
  if (!isHospital(session.user)) return <Navigate to={ownScreen(session.user) ?? '/'} replace />
  return children
}

/** Public screens made for the public (the home page): crew and hospital staff go to their screen, everyone else stays. */
export function SendCrewHome({ children }: { children: ReactNode }) {
  const session = useSession()
  const own = ownScreen(session?.user)
  if (own) return <Navigate to={own} replace />
  return children
}
