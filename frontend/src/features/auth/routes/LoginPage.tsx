import { useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { Alert } from '@/components/Feedback'
import { ApiError } from '@/lib/api'
import { getSignOutNotice } from '@/lib/session'
import { S } from '@/strings'
import { useLogin } from '../api/auth'

export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return S.invalidLogin
    if (error.kind === 'http' && error.status < 500 && error.message) return error.message
  }
  return S.loginFailed
}

export function LoginPage() {
  const navigate = useNavigate()
  const location = useLocation()
  const notice = (location.state as { message?: string } | null)?.message ?? getSignOutNotice()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [showPassword, setShowPassword] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const login = useLogin()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    if (!username.trim() || !password) {
      setError(S.loginFieldsRequired)
      return
    }
    login.mutate(
      { username: username.trim(), password },
      {
        onSuccess: () => navigate('/profile'),
        onError: (err) => setError(loginErrorMessage(err)),
      },
    )
  }

  return (
    <div className="mx-auto max-w-md">
      <div className="card p-8">
        <h1 className="mb-1 text-2xl font-bold">Sign in</h1>
        <p className="mb-6 text-sm text-slate-600">Welcome back. Sign in to book and track ambulances.</p>
        {notice && !error && <div className="mb-4"><Alert tone="info">{notice}</Alert></div>}
        {error && <div className="mb-4"><Alert tone="error">{error}</Alert></div>}
        <form onSubmit={submit} noValidate className="space-y-4">
          <div>
            <label htmlFor="username" className="label">Username</label>
            <input id="username" className="input" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
          </div>
          <div>
            <label htmlFor="password" className="label">Password</label>
            <div className="flex gap-2">
              <input
                id="password"
                className="input"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <button
                type="button"
                className="btn-secondary"
                // The name says what pressing it does; no aria-pressed as well, or a
                // screen reader would announce "Hide password, pressed".
                aria-label={showPassword ? 'Hide password' : 'Show password'}
                aria-controls="password"
                onClick={() => setShowPassword((s) => !s)}
              >
                {showPassword ? 'Hide' : 'Show'}
              </button>
            </div>
          </div>
          <button type="submit" className="btn-primary w-full" disabled={login.isPending}>
            {login.isPending ? 'Signing in...' : 'Sign In'}
          </button>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600">
          Don&apos;t have an account?{' '}
          <Link to="/register" className="font-semibold text-brand-700 hover:underline">Register here</Link>
        </p>
      </div>
    </div>
  )
}
