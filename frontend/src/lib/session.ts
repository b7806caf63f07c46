// The session (user + token) lives in localStorage, as the spec says; components
// read it through useSession() and re-render when it changes.
import { useSyncExternalStore } from 'react'
import type { AuthResponse, User } from './types'

const TOKEN_KEY = 'token'
const USER_KEY = 'user'

export interface Session {
  token: string
  user: User
}

let cached: Session | null | undefined
// Why the last session ended (e.g. it expired), shown once on the sign-in screen.
let signOutNotice: string | null = null
const listeners = new Set<() => void>()

function read(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY)
    const user = localStorage.getItem(USER_KEY)
    if (!token || !user) return null
    return { token, user: JSON.parse(user) as User }
  } catch {
    return null
  }
}

export function getSession(): Session | null {
  if (cached === undefined) cached = read()
  return cached
}

function emit() {
  cached = read()
  listeners.forEach((l) => l())
}

// What this client keeps of a sign-in (the refresh token is the frontend of issue 16's).
export function saveSession(auth: Pick<AuthResponse, 'token' | 'user' | 'role' | 'id'>, fallbackUser?: Partial<User>) {
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
  localStorage.setItem(TOKEN_KEY, auth.token)
  localStorage.setItem(USER_KEY, JSON.stringify(user))
  signOutNotice = null
  emit()
}

export function updateStoredUser(user: User) {
  if (!getSession()) return
  localStorage.setItem(USER_KEY, JSON.stringify(user))
  emit()
}

export function clearSession(notice: string | null = null) {
  signOutNotice = notice
  localStorage.removeItem(TOKEN_KEY)
  localStorage.removeItem(USER_KEY)
  emit()
}

export function getSignOutNotice(): string | null {
  return signOutNotice
}

/** Calls `listener` whenever the session changes (this tab or another). */
export function subscribeSession(listener: () => void) {
  listeners.add(listener)
  const onStorage = (e: StorageEvent) => {
    if (e.key === TOKEN_KEY || e.key === USER_KEY || e.key === null) emit()
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

/** Roles compare case-insensitively; anything not admin acts as a user (spec 6). */
export function isAdmin(user: Pick<User, 'role'> | null | undefined): boolean {
  return (user?.role ?? '').toString().toUpperCase() === 'ADMIN'
}
