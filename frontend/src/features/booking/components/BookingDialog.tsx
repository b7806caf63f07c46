import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/Feedback'
import { Dialog } from '@/components/Dialog'
import { ambulanceTypeLabel } from '@/lib/format'
import type { Ambulance, Booking } from '@/lib/types'
import { useBookingSubmit } from '../useBookingSubmit'
import { emptyPatient, type BookingField, type PatientForm } from '../validation'
import { PatientFields, submitLabel } from './PatientFields'

const PREFIX = 'dialog'

/**
 * The booking dialog behind 'Book Now' on a hospital's ambulances (spec 2). After a
 * booking it says so and the user is taken to /history 1.5 s later.
 */
export function BookingDialog({
  hospitalId,
  ambulance,
  onClose,
  onConflict,
  onBooked,
}: {
  hospitalId: number
  ambulance: Ambulance
  onClose: () => void
  onConflict: () => void
  onBooked?: (booking: Booking) => void
}) {
  const [patient, setPatient] = useState<PatientForm>(emptyPatient)
  const { submit, error, success, invalid, clearInvalid, pending } = useBookingSubmit({
    idPrefix: PREFIX,
    onConflict,
    onBooked: (b) => {
      setPatient(emptyPatient)
      onBooked?.(b)
    },
  })

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    submit({ ...patient, hospitalId: String(hospitalId), ambulanceId: String(ambulance.id) })
  }

  return (
    <Dialog title={`Book Ambulance ${ambulance.number}`} onClose={onClose}>
      <p className="-mt-2 mb-4 text-sm text-slate-600">
        {ambulanceTypeLabel[ambulance.type] ?? ambulance.type}
        {ambulance.driverInfo ? ` · Driver: ${ambulance.driverInfo}` : ''}
      </p>
      <div className="mb-4 space-y-3 empty:hidden" aria-live="polite">
        {success && <Alert tone="success">{success} Taking you to your booking history...</Alert>}
        {error && <Alert tone="error">{error}</Alert>}
      </div>
      <form onSubmit={onSubmit} noValidate aria-label="Booking details" className="grid gap-4 sm:grid-cols-2">
        <PatientFields
          idPrefix={PREFIX}
          value={patient}
          invalid={invalid}
          onChange={(patch) => {
            setPatient((p) => ({ ...p, ...patch }))
            clearInvalid(Object.keys(patch) as BookingField[])
          }}
        />
        <div className="flex flex-col-reverse gap-3 sm:col-span-2 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className={patient.bookingType === 'EMERGENCY' ? 'btn-primary' : 'btn-blue'}
            disabled={pending || !!success}
          >
            {submitLabel(patient.bookingType, pending)}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
