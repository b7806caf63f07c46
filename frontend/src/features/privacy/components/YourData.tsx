import { useRef, useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { Alert } from '@/components/Feedback'
import { BusyButton } from '@/components/BusyButton'
import { Dialog } from '@/components/Dialog'
import { ApiError, messageOf } from '@/lib/api'
import { dropBrowserSubscription, takeEndpoint } from '@/lib/push/device'
import { clearSession, isAdmin, isCrew, isHospital } from '@/lib/session'
import type { User } from '@/lib/types'
import { useDeleteAccount, useDownloadMyData } from '../api/account'
import { usePrivacyText, type PrivacyText } from '../i18n'

/**
 * The profile's "Your data": everything held about the person as a file, and, for the
 * public's accounts, deleting the account (docs/decisions/0022-personal-data.md).
 */
export function YourData({ user }: { user: User }) {
  return <YourDataSection user={user} t={usePrivacyText().yourData} />
}

type Words = PrivacyText['yourData']

function YourDataSection({ user, t }: { user: User; t: Words }) {
  const download = useDownloadMyData()
  const [deleting, setDeleting] = useState(false)
  const staff = isAdmin(user) || isCrew(user) || isHospital(user)
  return (
    <section className="card space-y-4 p-6" aria-labelledby="your-data-title">
      <div>
        <h2 id="your-data-title" className="font-semibold">{t.title}</h2>
        <p className="mt-1 text-sm text-slate-600">
          {t.intro}{' '}
          <Link to="/privacy" className="font-medium text-brand-700 underline">{t.howWeUse}</Link>
        </p>
      </div>
      {download.isSuccess && <Alert tone="success">{t.downloaded}</Alert>}
      {download.isError && <Alert tone="error">{messageOf(download.error, t.downloadFailed)}</Alert>}
      <div className="flex flex-wrap gap-3">
        <BusyButton className="btn-secondary" busy={download.isPending} busyLabel={t.preparing} onClick={() => download.mutate()}>
          {t.download}
        </BusyButton>
        {!staff && (
          <button type="button" className="btn-secondary border-red-300 text-red-700 hover:bg-red-50" onClick={() => setDeleting(true)}>
            {t.delete}
          </button>
        )}
      </div>
      {staff && <p className="text-sm text-slate-600">{t.staff}</p>}
      {deleting && <DeleteAccountDialog t={t} onClose={() => setDeleting(false)} />}
    </section>
  )
}

/** The password asked again; the server's refusal (an open booking, a wrong password) said as it says it. */
function DeleteAccountDialog({ t, onClose }: { t: Words; onClose: () => void }) {
  const remove = useDeleteAccount()
  const navigate = useNavigate()
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const field = useRef<HTMLInputElement>(null)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    if (!password) {
      setError(t.passwordRequired)
      field.current?.focus()
      return
    }
    remove.mutate(password, {
      onSuccess: () => {
        // Every session and device ended on the server; this browser forgets them too.
        if (takeEndpoint()) dropBrowserSubscription()
        clearSession(t.deleted)
        navigate('/login', { replace: true })
      },
      onError: (err) => {
        if (err instanceof ApiError && err.kind === 'http' && err.status === 403) {
          setError(t.passwordWrong)
          field.current?.focus()
        } else setError(messageOf(err, t.deleteFailed))
      },
    })
  }

  return (
    <Dialog title={t.dialogTitle} onClose={onClose} initialFocus={field}>
      <form className="space-y-4" onSubmit={submit} noValidate>
        <p className="text-sm text-slate-700">{t.dialogText}</p>
        <p className="text-sm text-slate-600">{t.downloadFirst}</p>
        {error && <Alert tone="error">{error}</Alert>}
        <div>
          <label htmlFor="delete-password" className="label">{t.password}</label>
          <input
            ref={field}
            id="delete-password"
            type="password"
            className="input"
            autoComplete="current-password"
            aria-invalid={error ? true : undefined}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={onClose}>{t.cancel}</button>
          <BusyButton className="btn-primary" busy={remove.isPending} busyLabel={t.deleting}>
            {t.confirm}
          </BusyButton>
        </div>
      </form>
    </Dialog>
  )
}
