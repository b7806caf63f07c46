import { useRef, useState, type FormEvent } from 'react'
import { useNavigate, Link } from 'react-router'
import { UseLocationButton } from '@/components/UseLocationButton'
import { BusyButton } from '@/components/BusyButton'
import { ApiError, messageOf } from '@/lib/api'
import { S } from '@/strings'
import { useRegister } from '../api/auth'
import { AuthCard } from '../components/AuthCard'
import { validateRegister, type RegisterForm } from '../validation'

type Field = keyof RegisterForm

const empty: RegisterForm = { username: '', email: '', password: '', phone: '', latitude: '', longitude: '' }

// Read while rendering, so that they are in the chosen language.
const fields = (): { name: Field; label: string; type: string; autoComplete: string; hint?: string; wide?: boolean }[] => [
  { name: 'username', label: S.auth.username, type: 'text', autoComplete: 'username', hint: S.register.usernameHint, wide: true },
  { name: 'email', label: S.profile.email, type: 'email', autoComplete: 'email', wide: true },
  { name: 'password', label: S.auth.password, type: 'password', autoComplete: 'new-password', hint: S.register.passwordHint },
  { name: 'phone', label: S.crewAdmin.phone, type: 'tel', autoComplete: 'tel', hint: S.register.phoneHint },
  { name: 'latitude', label: S.profile.latitude, type: 'text', autoComplete: 'off', hint: S.register.latitudeHint },
  { name: 'longitude', label: S.profile.longitude, type: 'text', autoComplete: 'off', hint: S.register.longitudeHint },
]

const isField = (name: string | undefined): name is Field => !!name && name in empty

export function RegisterPage() {
  const navigate = useNavigate()
  const [form, setForm] = useState<RegisterForm>(empty)
  const [error, setError] = useState<string | null>(null)
  const [invalid, setInvalid] = useState<Field[]>([])
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({})
  const registration = useRegister()

  const fail = (message: string, bad: Field[]) => {
    setError(message)
    setInvalid(bad)
    if (bad[0]) inputs.current[bad[0]]?.focus()
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    setInvalid([])
    const check = validateRegister(form)
    if (!check.input) {
      fail(check.error ?? S.fillAllFields, check.fields ?? [])
      return
    }
    registration.mutate(check.input, {
      onSuccess: () => navigate('/login', { state: { message: S.registered } }),
      onError: (err) => {
        const field = err instanceof ApiError ? err.field : undefined
        fail(messageOf(err, S.registrationFailed), isField(field) ? [field] : [])
      },
    })
  }

  return (
    <AuthCard
      title={S.register.title}
      intro={S.register.intro}
      wide
      error={error}
      other={{ question: S.register.haveAccount, to: '/login', label: S.auth.signInTitle }}
    >
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
        {fields().map((f) => {
          const bad = invalid.includes(f.name)
          return (
            <div key={f.name} className={f.wide ? 'sm:col-span-2' : ''}>
              <label htmlFor={f.name} className="label">{f.label}</label>
              <input
                ref={(node) => {
                  inputs.current[f.name] = node
                }}
                id={f.name}
                name={f.name}
                className={`input ${bad ? 'border-red-500 ring-2 ring-red-100' : ''}`}
                type={f.type}
                inputMode={f.name === 'latitude' || f.name === 'longitude' ? 'decimal' : undefined}
                autoComplete={f.autoComplete}
                required
                aria-invalid={bad || undefined}
                value={form[f.name]}
                aria-describedby={f.hint ? `${f.name}-hint` : undefined}
                onChange={(e) => setForm({ ...form, [f.name]: e.target.value })}
              />
              {f.hint && <p id={`${f.name}-hint`} className="mt-1 text-xs text-slate-500">{f.hint}</p>}
            </div>
          )
        })}
        <div className="sm:col-span-2">
          <UseLocationButton
            onLocated={(c) => {
              setForm((f) => ({ ...f, latitude: c.latitude.toFixed(6), longitude: c.longitude.toFixed(6) }))
              setInvalid((list) => list.filter((n) => n !== 'latitude' && n !== 'longitude'))
            }}
          />
        </div>
        <BusyButton className="btn-primary sm:col-span-2" busy={registration.isPending} busyLabel={S.register.creating}>
          {S.nav.register}
        </BusyButton>
        <p className="text-sm sm:col-span-2">
          <Link to="/privacy" className="font-medium text-brand-700 underline">{S.register.privacy}</Link>
        </p>
      </form>
    </AuthCard>
  )
}
