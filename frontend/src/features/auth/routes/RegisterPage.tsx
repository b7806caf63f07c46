import { useRef, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { UseLocationButton } from '@/components/UseLocationButton'
import { BusyButton } from '@/components/BusyButton'
import { ApiError, messageOf } from '@/lib/api'
import { S } from '@/strings'
import { useRegister } from '../api/auth'
import { AuthCard } from '../components/AuthCard'
import { validateRegister, type RegisterForm } from '../validation'

type Field = keyof RegisterForm

const empty: RegisterForm = { username: '', email: '', password: '', phone: '', latitude: '', longitude: '' }

const fields: { name: Field; label: string; type: string; autoComplete: string; hint?: string; wide?: boolean }[] = [
  { name: 'username', label: 'Username', type: 'text', autoComplete: 'username', hint: '3–32 letters, digits, _ . -', wide: true },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', wide: true },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password', hint: 'At least 8 characters' },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', hint: '7–15 digits, optional leading +' },
  { name: 'latitude', label: 'Latitude', type: 'text', autoComplete: 'off', hint: 'e.g. 30.67' },
  { name: 'longitude', label: 'Longitude', type: 'text', autoComplete: 'off', hint: 'e.g. 74.33' },
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
      title="Create your account"
      intro="Your location lets us show the hospitals nearest to you."
      wide
      error={error}
      other={{ question: 'Already have an account?', to: '/login', label: 'Sign in' }}
    >
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
        {fields.map((f) => {
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
        <BusyButton className="btn-primary sm:col-span-2" busy={registration.isPending} busyLabel="Creating account...">
          Register
        </BusyButton>
      </form>
    </AuthCard>
  )
}
