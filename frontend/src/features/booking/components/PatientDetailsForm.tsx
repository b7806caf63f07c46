import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/Feedback'
import { BusyButton } from '@/components/BusyButton'
import { Section } from '@/components/Section'
import { ApiError, messageOf } from '@/lib/api'
import { S } from '@/strings'
import { useUpdatePatient } from '../api/patient'
import { emptyPatient, fieldOf, validatePatientDetails, type BookingField, type PatientForm } from '../validation'
import { PatientFields } from './PatientFields'

/**
 * An open emergency's patient details, for its requester: optional, all four sent
 * together when known (the crew's screen shows them as they arrive). Sent again, they
 * replace the last. Its words say "on its way" only once the crew has `accepted`.
 */
export function PatientDetailsForm({ bookingId, accepted }: { bookingId: number; accepted: boolean }) {
  const [form, setForm] = useState<PatientForm>({ ...emptyPatient, bookingType: 'EMERGENCY' })
  const [invalid, setInvalid] = useState<BookingField[]>([])
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState(false)
  const update = useUpdatePatient(bookingId)

  const fail = (message: string, fields: BookingField[]) => {
    setError(message)
    setInvalid(fields)
    setSent(false)
    if (fields[0]) document.getElementById(`patient-${fields[0]}`)?.focus()
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const check = validatePatientDetails(form)
    if (!check.value) return fail(check.error ?? S.patientDetails.failed, check.fields ?? [])
    update.mutate(check.value, {
      onSuccess: () => {
        setError(null)
        setInvalid([])
        setSent(true)
      },
      onError: (err) => {
        const field = fieldOf(err instanceof ApiError ? err.field : undefined)
        fail(messageOf(err, S.patientDetails.failed), field ? [field] : [])
      },
    })
  }

  return (
    <Section
      id="patient-heading"
      title={
        <>
          {S.patientDetails.heading} <span className="font-normal text-slate-600">{S.patientDetails.optional}</span>
        </>
      }
      intro={accepted ? S.patientDetails.intro : S.patientDetails.introWaiting}
      className="card space-y-3 p-5"
      headingClassName="font-semibold"
    >
      <form noValidate onSubmit={submit} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1">
        <PatientFields
          idPrefix="patient"
          details
          value={form}
          invalid={invalid}
          onChange={(patch) => {
            setSent(false)
            setForm((f) => ({ ...f, ...patch }))
          }}
        />
        <div className="space-y-3 sm:col-span-2 lg:col-span-1" aria-live="polite">
          {error && <Alert tone="error">{error}</Alert>}
          {sent && <Alert tone="success">{S.patientDetails.sent}</Alert>}
          <BusyButton className="btn-blue w-full" busy={update.isPending} busyLabel={S.patientDetails.sending}>
            {S.patientDetails.send}
          </BusyButton>
        </div>
      </form>
    </Section>
  )
}
