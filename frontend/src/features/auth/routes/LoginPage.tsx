import { useState, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { BusyButton } from '@/components/BusyButton'
import { ApiError, messageOf, translatedMessage } from '@/lib/api'
import { getSignOutNotice, homeOf } from '@/lib/session'
import { S } from '@/strings'
import { useLogin } from '../api/auth'
import { AuthCard } from '../components/AuthCard'

export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return messageOf(error, S.loginFailed)
    if (error.status === 401) return S.invalidLogin
    if (error.kind === 'http' && error.status < 500 && error.message) return translatedMessage(error) ?? error.message
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
        // Crew land on their job screen, hospital staff on their incoming board; everyone else on their profile (spec).
        onSuccess: (auth) => navigate(homeOf(auth.user ?? auth)),
        onError: (err) => setError(loginErrorMessage(err)),
      },
    )
  }

  return (
    <AuthCard
      title={S.auth.signInTitle}
      intro={S.auth.signInIntro}
      notice={notice}
      error={error}
      other={{ question: S.auth.noAccount, to: '/register', label: S.auth.registerHere }}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <div>
          <label htmlFor="username" className="label">{S.auth.username}</label>
          <input id="username" className="input" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
        </div>
        <div>
          <label htmlFor="password" className="label">{S.auth.password}</label>
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
              aria-label={showPassword ? S.auth.hidePassword : S.auth.showPassword}
              aria-controls="password"
              onClick={() => setShowPassword((s) => !s)}
            >
              {showPassword ? S.auth.hide : S.auth.show}
            </button>
          </div>
        </div>
        <BusyButton className="btn-primary w-full" busy={login.isPending} busyLabel={S.auth.signingIn}>
          {S.auth.signIn}
        </BusyButton>
      </form>
    </AuthCard>
  )
}
