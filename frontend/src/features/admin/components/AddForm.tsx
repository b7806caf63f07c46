import { useState, type FormEvent, type ReactNode } from 'react'
import type { UseMutationResult } from '@tanstack/react-query'
import { Alert } from '@/components/Feedback'
import { messageOf } from '@/lib/api'
import { S } from '@/strings'

/**
 * An admin add form's state. `toBody` turns what was typed into the request, or null
 * when a required field is missing ('Please fill in all required fields.'). After a
 * success the form is emptied and `onAdded` runs; after a failure it says why.
 */
export function useAddForm<F, B>({
  empty,
  toBody,
  add,
  failed,
  onAdded,
}: {
  empty: F
  toBody: (form: F) => B | null
  add: UseMutationResult<unknown, Error, B>
  failed: string
  onAdded: () => void
}) {
  const [form, setForm] = useState(empty)
  const [error, setError] = useState<string | null>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const body = toBody(form)
    if (!body) {
      setError(S.fillRequired)
      return
    }
    setError(null)
    add.mutate(body, {
      onSuccess: () => {
        setForm(empty)
        onAdded()
      },
      onError: (err) => setError(messageOf(err, failed)),
    })
  }
  return {
    form,
    /** Changes some fields. */
    set: (patch: Partial<F>) => setForm((f) => ({ ...f, ...patch })),
    error,
    submit,
    pending: add.isPending,
  }
}

type AddFormState = Pick<ReturnType<typeof useAddForm>, 'error' | 'submit' | 'pending'>

/** The form's card, named for screen readers, with its error above the fields. */
export function AddForm({ state, name, children }: { state: AddFormState; name: string; children: ReactNode }) {
  return (
    <form onSubmit={state.submit} noValidate className="card grid gap-4 p-6 sm:grid-cols-2" aria-label={name}>
      {state.error && <div className="sm:col-span-2"><Alert tone="error">{state.error}</Alert></div>}
      {children}
    </form>
  )
}

/** 'Add X', and 'Adding...' while it is sent. */
export function AddSubmit({ state, label }: { state: AddFormState; label: string }) {
  return (
    <button type="submit" className="btn-primary" disabled={state.pending}>
      {state.pending ? S.common.adding : label}
    </button>
  )
}

/** The form's fields that hold any text (not a choice from a list). */
type TextKey<F> = { [K in keyof F]: string extends F[K] ? K : never }[keyof F]

/** A labelled text input for one of the form's fields. */
export function AddTextField<F>({
  state,
  field,
  id,
  label,
  className,
  type,
  autoComplete,
}: {
  state: { form: F; set: (patch: Partial<F>) => void }
  field: TextKey<F>
  id: string
  label: string
  className?: string
  type?: string
  autoComplete?: string
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">{label}</label>
      <input
        id={id}
        className="input"
        value={state.form[field] as string}
        onChange={(e) => state.set({ [field]: e.target.value } as Partial<F>)}
        type={type}
        autoComplete={autoComplete}
      />
    </div>
  )
}
