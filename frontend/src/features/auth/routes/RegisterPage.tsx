import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { Alert } from '../../../components/Feedback'
import { UseLocationButton } from '../../../components/UseLocationButton'
import { messageOf } from '../../../lib/api'
import { S } from '../../../strings'
import { useRegister } from '../api/auth'
import { validateRegister, type RegisterForm } from '../validation'

const empty: RegisterForm = { username: '', email: '', password: '', phone: '', latitude: '', longitude: '' }

const fields: { name: keyof RegisterForm; label: string; type: string; autoComplete: string; hint?: string }[] = [
  { name: 'username', label: 'Username', type: 'text', autoComplete: 'username', hint: '3–32 letters, digits, _ . -' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password', hint: 'At least 8 characters' },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel' },
  { name: 'latitude', label: 'Latitude', type: 'text', autoComplete: 'off' },
  { name: 'longitude', label: 'Longitude', type: 'text', autoComplete: 'off' },
]

export function RegisterPage() {
  const navigate = useNavigate()
  const [form, setForm] = useState<RegisterForm>(empty)
  const [error, setError] = useState<string | null>(null)
  const registration = useRegister()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    const { input, error } = validateRegister(form)
    if (!input) {
      setError(error ?? S.fillAllFields)
      return
    }
    registration.mutate(input, {
      onSuccess: () => navigate('/login', { state: { message: 'Registration successful. Please sign in.' } }),
      onError: (err) => setError(messageOf(err, S.registrationFailed)),
    })
  }

  return (
    <div className="mx-auto max-w-xl">
      <div className="card p-8">
        <h1 className="mb-1 text-2xl font-bold">Create your account</h1>
        <p className="mb-6 text-sm text-slate-600">Your location lets us show the hospitals nearest to you.</p>
        {error && <div className="mb-4"><Alert tone="error">{error}</Alert></div>}
        <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
          {fields.map((f) => (
            <div key={f.name} className={f.name === 'email' || f.name === 'username' ? 'sm:col-span-2' : ''}>
              <label htmlFor={f.name} className="label">{f.label}</label>
              <input
                id={f.name}
                name={f.name}
                className="input"
                type={f.type}
                inputMode={f.name === 'latitude' || f.name === 'longitude' ? 'decimal' : undefined}
                autoComplete={f.autoComplete}
                value={form[f.name]}
                aria-describedby={f.hint ? `${f.name}-hint` : undefined}
                onChange={(e) => setForm({ ...form, [f.name]: e.target.value })}
              />
              {f.hint && <p id={`${f.name}-hint`} className="mt-1 text-xs text-slate-500">{f.hint}</p>}
            </div>
          ))}
          <div className="sm:col-span-2">
            <UseLocationButton
              onLocated={(c) => setForm((f) => ({ ...f, latitude: c.latitude.toFixed(6), longitude: c.longitude.toFixed(6) }))}
            />
          </div>
          <button type="submit" className="btn-primary sm:col-span-2" disabled={registration.isPending}>
            {registration.isPending ? 'Creating account...' : 'Register'}
          </button>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600">
          Already have an account? <Link to="/login" className="font-semibold text-brand-700 hover:underline">Sign in</Link>
        </p>
      </div>
    </div>
  )
}
