import { useEffect, useState, type FormEvent } from 'react'
import { Alert, ErrorState, Spinner } from '@/components/Feedback'
import { UseLocationButton } from '@/components/UseLocationButton'
import { BusyButton } from '@/components/BusyButton'
import { ApiError, messageOf } from '@/lib/api'
import { formatCoord, formatDate } from '@/lib/format'
import { isAdmin, isCrew, isHospital, useSession } from '@/lib/session'
import type { User } from '@/lib/types'
import { S } from '@/strings'
import { useProfile, useUpdateProfile } from '../api/profile'
import { buildProfileUpdate, type ProfileForm } from '../validation'
import { LanguagePicker } from '@/components/LanguagePicker'
import { YourData } from '@/features/privacy'

function toForm(user: User): ProfileForm {
  return {
    email: user.email,
    latitude: user.latitude?.toString() ?? '',
    longitude: user.longitude?.toString() ?? '',
    password: '',
    currentPassword: '',
  }
}

/** What the server said about the current password (400 naming it, 403 wrong), if it did. */
function currentPasswordError(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.kind !== 'http') return null
  if (err.status === 403) return S.currentPasswordWrong
  if (err.status === 400 && err.field === 'currentPassword') return messageOf(err, S.currentPasswordRequired)
  return null
}

export default function ProfilePage() {
  const session = useSession()
  if (!session) {
    return <Alert tone="warning">{S.notLoggedIn}</Alert>
  }
  return <Profile userId={session.user.id} />
}

function Profile({ userId }: { userId: number }) {
  const profile = useProfile(userId)
  const update = useUpdateProfile(userId)
  const [editing, setEditing] = useState(false)
  const [form, setForm] = useState<ProfileForm | null>(null)
  const [error, setError] = useState<string | null>(null)
  // An error about the current password shows on that field.
  const [passwordError, setPasswordError] = useState<string | null>(null)
  const [success, setSuccess] = useState<string | null>(null)

  useEffect(() => {
    if (!success) return
    const t = setTimeout(() => setSuccess(null), 3000)
    return () => clearTimeout(t)
  }, [success])

  if (profile.isPending) return <Spinner label={S.profile.loading} />
  if (profile.isError) {
    return (
      <div className="mx-auto max-w-3xl">
        <ErrorState message={S.fetchProfileFailed} error={profile.error} onRetry={() => profile.refetch()} />
      </div>
    )
  }

  const user = profile.data
  const admin = isAdmin(user)
  // Admins, crew and hospital staff keep no location of their own.
  const withLocation = !admin && !isCrew(user) && !isHospital(user)

  const startEdit = () => {
    setForm(toForm(user))
    setError(null)
    setPasswordError(null)
    setSuccess(null)
    setEditing(true)
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!form) return
    setError(null)
    setPasswordError(null)
    const check = buildProfileUpdate(form, withLocation)
    if (!check.body) {
      if (check.field === 'currentPassword') failOnCurrentPassword(check.error ?? S.currentPasswordRequired)
      else setError(check.error ?? S.updateProfileFailed)
      return
    }
    update.mutate(check.body, {
      onSuccess: () => {
        setEditing(false)
        setSuccess(S.profileUpdated)
      },
      onError: (err) => {
        const onField = currentPasswordError(err)
        if (onField) failOnCurrentPassword(onField)
        else setError(messageOf(err, S.updateProfileFailed))
      },
    })
  }

  const failOnCurrentPassword = (message: string) => {
    setPasswordError(message)
    document.getElementById('current-password')?.focus()
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{S.profile.title}</h1>
        <LanguagePicker showLabel />
        {!editing && (
          <button type="button" className="btn-secondary" onClick={startEdit}>
            {S.profile.edit}
          </button>
        )}
      </div>
      {success && <Alert tone="success">{success}</Alert>}
      {error && <Alert tone="error">{error}</Alert>}

      {!editing || !form ? (
        <div className="grid gap-6 md:grid-cols-3">
          <section className="card p-6 md:col-span-2" aria-label={S.profile.details}>
            <div className="mb-6 flex items-center gap-4">
              <span aria-hidden="true" className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-xl font-bold uppercase text-brand-700">
                {user.username.slice(0, 1)}
              </span>
              <div>
                <p className="text-lg font-semibold">{user.username}</p>
                <p className="flex items-center gap-2 text-sm text-slate-600">
                  {user.role}
                  {admin && <span className="rounded-full bg-purple-100 px-2 py-0.5 text-xs font-semibold text-purple-800">{S.profile.admin}</span>}
                </p>
              </div>
            </div>
            <dl className="grid gap-4 sm:grid-cols-2">
              <Detail term={S.profile.username} value={user.username} />
              <Detail term={S.profile.email} value={user.email} />
              {withLocation && <Detail term={S.profile.latitude} value={formatCoord(user.latitude)} />}
              {withLocation && <Detail term={S.profile.longitude} value={formatCoord(user.longitude)} />}
              <Detail term={S.profile.role} value={user.role} />
              <Detail term={S.profile.memberSince} value={formatDate(user.createdAt)} />
            </dl>
          </section>
          <section className="card p-6" aria-label={S.profile.quickStats}>
            <h2 className="mb-4 font-semibold">{S.profile.quickStats}</h2>
            <ul className="space-y-3 text-sm">
              <li className="flex justify-between"><span className="text-slate-600">{S.profile.accountStatus}</span><span className="font-semibold text-green-700">{S.profile.active}</span></li>
              <li className="flex justify-between"><span className="text-slate-600">{S.profile.emergencyLine}</span><span className="font-semibold">{S.emergencyNumber}</span></li>
              <li className="flex justify-between"><span className="text-slate-600">{S.profile.support}</span><span className="font-semibold">{S.profile.always}</span></li>
            </ul>
          </section>
          <div className="md:col-span-3">
            <YourData user={user} />
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="card space-y-4 p-6" aria-label={S.profile.editForm}>
          <div>
            <label htmlFor="email" className="label">{S.profile.email}</label>
            <input id="email" type="email" className="input" autoComplete="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          </div>
          {withLocation && (
            <div className="grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor="latitude" className="label">{S.profile.latitude}</label>
                <input id="latitude" className="input" inputMode="decimal" value={form.latitude} onChange={(e) => setForm({ ...form, latitude: e.target.value })} />
              </div>
              <div>
                <label htmlFor="longitude" className="label">{S.profile.longitude}</label>
                <input id="longitude" className="input" inputMode="decimal" value={form.longitude} onChange={(e) => setForm({ ...form, longitude: e.target.value })} />
              </div>
              <div className="sm:col-span-2">
                <UseLocationButton onLocated={(c) => setForm((f) => f && { ...f, latitude: c.latitude.toFixed(6), longitude: c.longitude.toFixed(6) })} />
              </div>
            </div>
          )}
          <div>
            <label htmlFor="new-password" className="label">{S.profile.newPassword}</label>
            <input id="new-password" type="password" className="input" autoComplete="new-password" placeholder={S.profile.keepPassword} value={form.password} onChange={(e) => {
              const password = e.target.value
              // No new password, no current one: the field goes, and what was typed in it.
              setForm({ ...form, password, currentPassword: password ? form.currentPassword : '' })
              if (!password) setPasswordError(null)
            }} />
          </div>
          {form.password && (
            <div>
              <label htmlFor="current-password" className="label">{S.currentPasswordLabel}</label>
              <input
                id="current-password"
                type="password"
                className={`input ${passwordError ? 'border-red-500 ring-2 ring-red-100' : ''}`}
                autoComplete="current-password"
                aria-invalid={passwordError ? true : undefined}
                aria-describedby={passwordError ? 'current-password-error' : 'current-password-hint'}
                value={form.currentPassword}
                onChange={(e) => {
                  setForm({ ...form, currentPassword: e.target.value })
                  setPasswordError(null)
                }}
              />
              {passwordError ? (
                <p id="current-password-error" role="alert" className="mt-1 text-sm text-red-700">{passwordError}</p>
              ) : (
                <p id="current-password-hint" className="mt-1 text-xs text-slate-500">{S.currentPasswordHint}</p>
              )}
            </div>
          )}
          <div className="flex gap-3">
            <BusyButton className="btn-primary" busy={update.isPending} busyLabel={S.profile.saving}>
              {S.profile.save}
            </BusyButton>
            <button type="button" className="btn-secondary" onClick={() => { setEditing(false); setError(null); setPasswordError(null) }}>
              {S.profile.cancel}
            </button>
          </div>
        </form>
      )}
    </div>
  )
}

function Detail({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{term}</dt>
      <dd className="mt-1 break-all text-slate-900">{value}</dd>
    </div>
  )
}
