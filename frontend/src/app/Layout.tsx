import { useEffect } from 'react'
import { Link, Outlet, useNavigate } from 'react-router'
import { onUnauthorized } from '@/lib/api'
import { useEmergencyNumber } from '@/lib/useEmergencyNumber'
import { ownScreen, useSession } from '@/lib/session'
import { S } from '@/strings'
import { OfflineBanner } from '@/components/Offline'
import { TopBar } from './TopBar'

export function Layout() {
  useEmergencyNumber()
  const navigate = useNavigate()
  const own = ownScreen(useSession()?.user)
  // Any 401 on an authenticated call: the session is gone, so sign in again.
  useEffect(() => {
    onUnauthorized(() => navigate('/login', { replace: true }))
    return () => onUnauthorized(null)
  }, [navigate])

  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        {S.layout.skip}
      </a>
      <TopBar />
      <OfflineBanner />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-6 text-sm text-slate-600 md:flex-row md:items-center md:justify-between">
          <p>{S.layout.copyright(new Date().getFullYear())} · {S.inAnEmergency}</p>
          <nav aria-label={S.layout.footer} className="flex flex-wrap gap-4">
            {own ? (
              // The users' screens send crew and hospital staff back to their screen: only theirs here.
              <>
                <Link to={own} className="inline-flex min-h-12 items-center hover:text-brand-700">{own === '/crew' ? S.nav.crew : S.nav.hospital}</Link>
                <Link to="/profile" className="inline-flex min-h-12 items-center hover:text-brand-700">{S.nav.profile}</Link>
                <Link to="/privacy" className="inline-flex min-h-12 items-center hover:text-brand-700">{S.layout.privacy}</Link>
              </>
            ) : (
              <>
                <Link to="/about" className="hover:text-brand-700">{S.nav.about}</Link>
                <Link to="/booking" className="hover:text-brand-700">{S.nav.book}</Link>
                <Link to="/hospitals/nearest" className="hover:text-brand-700">{S.layout.nearestHospitals}</Link>
                <Link to="/history" className="hover:text-brand-700">{S.nav.history}</Link>
                <Link to="/profile" className="hover:text-brand-700">{S.nav.profile}</Link>
                <Link to="/privacy" className="hover:text-brand-700">{S.layout.privacy}</Link>
              </>
            )}
          </nav>
        </div>
      </footer>
    </div>
  )
}
