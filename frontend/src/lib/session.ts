// The session (user, access token, refresh token and the access token's expiry) lives
// in localStorage, as the spec says; components read it through useSession() and
// re-render when it changes (in this tab or another).
import { useSyncExternalStore } from 'react'
import type { AuthResponse, User } from './types'

const TOKEN_KEY = 'token'
const USER_KEY = 'user'
const REFRESH_KEY = 'refreshToken'
const EXPIRES_KEY = 'expiresAt'
const KEYS = [TOKEN_KEY, USER_KEY, REFRESH_KEY, EXPIRES_KEY]

export interface Session {
  token: string
  user: User
  /** Absent for a server without refresh tokens: a 401 then simply signs out. */
  refreshToken?: string
  /** The access token's expiry (RFC 3339). */
  expiresAt?: string
}

/**
 * What this client keeps of a login, register or refresh answer. The refresh fields are
 * optional here only: a session made without them (the unit tests') signs out on a 401.
 */
export type SessionAuth = Pick<AuthResponse, 'token' | 'user' | 'role' | 'id'> & Partial<Pick<AuthResponse, 'refreshToken' | 'expiresAt'>>

let cached: Session | null | undefined
// Why the last session ended (e.g. it expired), shown once on the sign-in screen.
let signOutNotice: string | null = null
const listeners = new Set<() => void>()

/** The session as stored now (another tab may have changed it since it was cached). */
export function readStoredSession(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY)
    const user = localStorage.getItem(USER_KEY)
    if (!token || !user) return null
    const session: Session = { token, user: JSON.parse(user) as User }
    const refreshToken = localStorage.getItem(REFRESH_KEY)
    const expiresAt = localStorage.getItem(EXPIRES_KEY)
    if (refreshToken) session.refreshToken = refreshToken
    if (expiresAt) session.expiresAt = expiresAt
    return session
  } catch {
    return null
  }
}

export function getSession(): Session | null {
  if (cached === undefined) cached = readStoredSession()
  return cached
}

function emit() {
  cached = readStoredSession()
  listeners.forEach((l) => l())
}

/** Takes up what another tab stored (its storage event may not have arrived yet). */
export const reloadSession = emit

function setOrRemove(key: string, value: string | undefined) {
  if (value) localStorage.setItem(key, value)
  else localStorage.removeItem(key)
}

function storeTokens(auth: SessionAuth) {
  localStorage.setItem(TOKEN_KEY, auth.token)
  setOrRemove(REFRESH_KEY, auth.refreshToken)
  setOrRemove(EXPIRES_KEY, auth.expiresAt)
}

export function saveSession(auth: SessionAuth, fallbackUser?: Partial<User>) {
  const user: User = auth.user ?? {
    id: auth.id,
    role: auth.role,
    username: fallbackUser?.username ?? '',
    email: fallbackUser?.email ?? '',
    phone: '',
    latitude: null,
    longitude: null,
    createdAt: '',
  }
  storeTokens(auth)
  localStorage.setItem(USER_KEY, JSON.stringify(user))
  signOutNotice = null
  emit()
}

/** After a refresh: the new tokens (and the user as the server has it now). */
export function saveRefreshed(auth: SessionAuth) {
  storeTokens(auth)
  if (auth.user) localStorage.setItem(USER_KEY, JSON.stringify(auth.user))
  emit()
}

export function updateStoredUser(user: User) {
  if (!getSession()) return
  localStorage.setItem(USER_KEY, JSON.stringify(user))
  emit()
}

export function clearSession(notice: string | null = null) {
  signOutNotice = notice
  KEYS.forEach((key) => localStorage.removeItem(key))
  emit()
}

export function getSignOutNotice(): string | null {
  return signOutNotice
}

/** Calls `listener` whenever the session changes (this tab or another). */
export function subscribeSession(listener: () => void) {
  listeners.add(listener)
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || KEYS.includes(e.key)) emit()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, () => null)
}

const roleOf = (user: { role?: unknown } | null | undefined) => String(user?.role ?? '').toUpperCase()

/** Roles compare case-insensitively (docs/requirements.md, "Accounts and sign-in"). */
export function isAdmin(user: { role?: unknown } | null | undefined): boolean {
  return roleOf(user) === 'ADMIN'
}

/** The crew of an ambulance: only /crew and their profile are theirs. */
export function isCrew(user: { role?: unknown } | null | undefined): boolean {
  return roleOf(user) === 'CREW'
}

/** Hospital staff, tied to one hospital: only its incoming board (/hospital) and their profile are theirs. */
export function isHospital(user: { role?: unknown } | null | undefined): boolean {
  return roleOf(user) === 'HOSPITAL'
}

/** The one screen of a role that has only one (crew, hospital staff); null for users and admins. */
export function ownScreen(user: { role?: unknown } | null | undefined): '/crew' | '/hospital' | null {
  return isCrew(user) ? '/crew' : isHospital(user) ? '/hospital' : null
}

/** Where a person lands after signing in, and where the screens of others send them. */
export function homeOf(user: { role?: unknown } | null | undefined): string {
  return ownScreen(user) ?? '/profile'
}
