import { useEffect, useRef, useState } from 'react'
import { Link, NavLink, useLocation, useNavigate } from 'react-router'
import { clearSession, isAdmin, useSession } from '../lib/session'
import { S } from '../strings'
import { Icon } from '../components/Icon'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`

export function TopBar() {
  const session = useSession()
  const navigate = useNavigate()
  const location = useLocation()
  // Menus remember the page they were opened on, so navigating closes them.
  const [mobileOpenAt, setMobileOpenAt] = useState<string | null>(null)
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null)
  const mobileOpen = mobileOpenAt === location.pathname
  const menuOpen = menuOpenAt === location.pathname
  const setMobileOpen = (open: boolean) => setMobileOpenAt(open ? location.pathname : null)
  const setMenuOpen = (open: boolean) => setMenuOpenAt(open ? location.pathname : null)
  const menuRef = useRef<HTMLDivElement>(null)
  const user = session?.user
  const admin = isAdmin(user)
  const displayName = user?.username || user?.email || 'User'

  useEffect(() => {
    if (!menuOpen) return
    const onClick = (e: MouseEvent) => {
      if (!menuRef.current?.contains(e.target as Node)) setMenuOpenAt(null)
    }
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenuOpenAt(null)
    document.addEventListener('mousedown', onClick)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('mousedown', onClick)
      document.removeEventListener('keydown', onKey)
    }
  }, [menuOpen])

  const logout = () => {
    clearSession()
    navigate('/login')
  }

  const links = (
    <>
      <NavLink to="/about" className={linkClass}>
        About
      </NavLink>
      {user && !admin && (
        <>
          <NavLink to="/history" className={linkClass}>
            History
          </NavLink>
          <NavLink to="/book-ambulance" className={linkClass}>
            Book Ambulance
          </NavLink>
          <NavLink to="/hospitals/nearest" className={linkClass}>
            Hospitals
          </NavLink>
        </>
      )}
      {admin && (
        <NavLink to="/admin" className={linkClass}>
          Admin
        </NavLink>
      )}
      {!user && (
        <>
          <NavLink to="/login" className={linkClass}>
            Login
          </NavLink>
          <NavLink to="/register" className={linkClass}>
            Register
          </NavLink>
        </>
      )}
    </>
  )

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-brand-700">
          <Icon name="ambulance" className="h-7 w-7" /> AmbuCare
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {links}
        </nav>
        <div className="flex items-center gap-2">
          <a
            href={`tel:${S.emergencyNumber}`}
            className="btn bg-brand-600 text-white shadow hover:bg-brand-700"
            aria-label={`Emergency: call ${S.emergencyNumber}`}
          >
            <Icon name="phone" className="h-4 w-4" />
            <span className="hidden sm:inline">Emergency</span> {S.emergencyNumber}
          </a>
          {user && (
            <div className="relative hidden md:block" ref={menuRef}>
              <button
                type="button"
                className="btn-ghost"
                aria-haspopup="menu"
                aria-expanded={menuOpen}
                onClick={() => setMenuOpen(!menuOpen)}
              >
                <span
                  aria-hidden="true"
                  className="flex h-7 w-7 items-center justify-center rounded-full bg-slate-200 text-xs font-bold uppercase"
                >
                  {displayName.slice(0, 1)}
                </span>
                {displayName}
              </button>
              {menuOpen && (
                <div role="menu" className="absolute right-0 mt-2 w-44 rounded-lg border border-slate-200 bg-white py-1 shadow-lg">
                  <Link role="menuitem" to="/profile" className="block px-4 py-2 text-sm hover:bg-slate-100">
                    Profile
                  </Link>
                  <button
                    role="menuitem"
                    type="button"
                    onClick={logout}
                    className="block w-full px-4 py-2 text-left text-sm hover:bg-slate-100"
                  >
                    Logout
                  </button>
                </div>
              )}
            </div>
          )}
          <button
            type="button"
            className="btn-ghost md:hidden"
            aria-label={mobileOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={mobileOpen}
            aria-controls="mobile-menu"
            onClick={() => setMobileOpen(!mobileOpen)}
          >
            <Icon name={mobileOpen ? 'close' : 'menu'} className="h-6 w-6" />
          </button>
        </div>
      </div>
      {mobileOpen && (
        <nav id="mobile-menu" aria-label="Mobile" className="flex flex-col gap-1 border-t border-slate-200 px-4 py-3 md:hidden">
          {links}
          {user && (
            <>
              <p className="px-3 pt-2 text-xs uppercase tracking-wide text-slate-500">Signed in as {displayName}</p>
              <NavLink to="/profile" className={linkClass}>
                Profile
              </NavLink>
              <button type="button" onClick={logout} className="rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100">
                Logout
              </button>
            </>
          )}
        </nav>
      )}
    </header>
  )
}
