import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { Link, NavLink, useLocation, useNavigate } from 'react-router'
import { signOut } from '@/lib/api'
import { useEmergencyNumber } from '@/lib/useEmergencyNumber'
import { isAdmin, ownScreen, useSession } from '@/lib/session'
import { S } from '@/strings'
import { CallEmergency } from '@/components/CallEmergency'
import { Icon } from '@/components/Icon'
import { LanguagePicker } from '@/components/LanguagePicker'
import { SendAmbulanceLink } from '@/features/emergency'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`

export function TopBar() {
  useEmergencyNumber()
  const session = useSession()
  const navigate = useNavigate()
  const location = useLocation()
  // The mobile menu remembers the page it was opened on, so navigating closes it.
  const [mobileOpenAt, setMobileOpenAt] = useState<string | null>(null)
  const mobileOpen = mobileOpenAt === location.pathname
  const setMobileOpen = (open: boolean) => setMobileOpenAt(open ? location.pathname : null)
  const user = session?.user
  const admin = isAdmin(user)
  // Crew and hospital staff see only their screen, their profile, logout and the emergency call, all big.
  const own = ownScreen(user)
  const staff = own !== null
  const touch = staff ? 'min-h-12 min-w-12' : ''
  const displayName = user?.username || user?.email || S.nav.user

  const logout = () => {
    signOut()
    navigate('/login')
  }

  const links = own ? (
    <NavLink to={own} className={(state) => `${linkClass(state)} inline-flex min-h-12 items-center`}>
      {own === '/crew' ? S.nav.crew : S.nav.hospital}
    </NavLink>
  ) : (
    <>
      <NavLink to="/about" className={linkClass}>
        {S.nav.about}
      </NavLink>
      {user && !admin && (
        <>
          <NavLink to="/history" className={linkClass}>
            {S.nav.history}
          </NavLink>
          {/* /booking is the same form, and a hospital's ambulances belong to Hospitals. */}
          <NavLink to="/book-ambulance" className={({ isActive }) => linkClass({ isActive: isActive || location.pathname === '/booking' })}>
            {S.nav.book}
          </NavLink>
          <NavLink to="/hospitals/nearest" className={({ isActive }) => linkClass({ isActive: isActive || location.pathname.startsWith('/hospitals/') })}>
            {S.nav.hospitals}
          </NavLink>
        </>
      )}
      {admin && (
        <NavLink to="/admin" className={linkClass}>
          {S.nav.admin}
        </NavLink>
      )}
      {!user && (
        <>
          <NavLink to="/login" className={linkClass}>
            {S.nav.login}
          </NavLink>
          <NavLink to="/register" className={linkClass}>
            {S.nav.register}
          </NavLink>
        </>
      )}
    </>
  )

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      {/* A 360 px phone fits the logo, the call button, "Send" and the menu: tighter below sm, the name read only below 380 px. */}
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:gap-3">
        <Link to={own ?? '/'} className="flex items-center gap-2 text-lg font-bold text-brand-700">
          <Icon name="ambulance" className="h-7 w-7" /> <span className="max-[379px]:sr-only">{S.appName}</span>
        </Link>
        <nav aria-label={S.nav.main} className="hidden items-center gap-1 md:flex">
          {links}
        </nav>
        <div className="flex items-center gap-1.5 sm:gap-2">
          <LanguagePicker className="max-md:hidden" />
          <CallEmergency className={`btn bg-brand-600 text-white shadow hover:bg-brand-700 max-sm:px-3 ${touch}`} iconClass="h-4 w-4">
            {/* Narrow screens show only the number; the name stays "Emergency 911". */}
            <span className="sr-only sm:not-sr-only">{S.nav.emergency}</span> {S.emergencyNumber}
          </CallEmergency>
          {user && !admin && !staff && <SendAmbulanceLink compact />}
          {user && <UserMenu key={location.pathname} displayName={displayName} onLogout={logout} touch={touch} />}
          <button
            type="button"
            className={`btn-ghost md:hidden max-sm:px-2.5 ${touch}`}
            aria-label={mobileOpen ? S.nav.closeMenu : S.nav.openMenu}
            aria-expanded={mobileOpen}
            aria-controls="mobile-menu"
            onClick={() => setMobileOpen(!mobileOpen)}
          >
            <Icon name={mobileOpen ? 'close' : 'menu'} className="h-6 w-6" />
          </button>
        </div>
      </div>
      {mobileOpen && (
        <nav
          id="mobile-menu"
          aria-label={S.nav.mobile}
          className="flex flex-col gap-1 border-t border-slate-200 px-4 py-3 md:hidden"
          // A link to the page already shown changes nothing, so close on any link.
          onClick={(e) => (e.target as HTMLElement).closest('a') && setMobileOpen(false)}
        >
          {links}
          <LanguagePicker className="px-3 py-2" showLabel />
          {user && (
            <>
              <p className="px-3 pt-2 text-xs uppercase tracking-wide text-slate-500">{S.nav.signedInAs(displayName)}</p>
              <NavLink to="/profile" className={(state) => `${linkClass(state)} ${touch}`}>
                {S.nav.profile}
              </NavLink>
              <button type="button" onClick={logout} className={`rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100 ${touch}`}>
                {S.nav.logout}
              </button>
            </>
          )}
        </nav>
      )}
    </header>
  )
}

/**
 * The signed-in person's menu (Profile, Logout), as an ARIA menu button: Enter, Space
 * or ArrowDown opens it on the first item, arrows move, Escape closes and returns focus.
 * Keyed by the page, so navigating closes it.
 */
function UserMenu({ displayName, onLogout, touch }: { displayName: string; onLogout: () => void; touch: string }) {
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])

  useEffect(() => {
    if (!open) return
    items()[0]?.focus()
    const onPointer = (e: MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', onPointer)
    return () => document.removeEventListener('mousedown', onPointer)
  }, [open])

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = items()
    const at = list.indexOf(document.activeElement as HTMLElement)
    const focus = (i: number) => list[(i + list.length) % list.length]?.focus()
    if (e.key === 'ArrowDown') focus(at + 1)
    else if (e.key === 'ArrowUp') focus(at - 1)
    else if (e.key === 'Home') focus(0)
    else if (e.key === 'End') focus(list.length - 1)
    else if (e.key === 'Escape') {
      setOpen(false)
      buttonRef.current?.focus()
    } else if (e.key === 'Tab') {
      setOpen(false)
      return
    } else return
    e.preventDefault()
  }

  return (
    <div className="relative hidden md:block" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className={`btn-ghost ${touch}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? 'user-menu' : undefined}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault()
            setOpen(true)
          }
        }}
      >
        <span
          aria-hidden="true"
          className="flex h-7 w-7 items-center justify-center rounded-full bg-slate-200 text-xs font-bold uppercase"
        >
          {displayName.slice(0, 1)}
        </span>
        {/* Named by what it shows (WCAG 2.5.3: a spoken "click demo" works). */}
        <span className="max-w-40 truncate">
          {displayName}
          <span className="sr-only">{S.nav.accountMenu}</span>
        </span>
      </button>
      {open && (
        <div
          id="user-menu"
          ref={menuRef}
          role="menu"
          aria-label={S.nav.account}
          onKeyDown={onMenuKey}
          className="absolute right-0 mt-2 w-44 rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          <Link role="menuitem" tabIndex={-1} to="/profile" onClick={() => setOpen(false)} className={`block px-4 py-2 text-sm hover:bg-slate-100 focus:bg-slate-100 ${touch}`}>
            {S.nav.profile}
          </Link>
          <button
            role="menuitem"
            tabIndex={-1}
            type="button"
            onClick={onLogout}
            className={`block w-full px-4 py-2 text-left text-sm hover:bg-slate-100 focus:bg-slate-100 ${touch}`}
          >
            {S.nav.logout}
          </button>
        </div>
      )}
    </div>
  )
}
