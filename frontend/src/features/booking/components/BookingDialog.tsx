import type { FormEvent } from 'react'
import { Dialog } from '@/components/Dialog'
import { ambulanceTypeLabel } from '@/lib/format'
import type { Ambulance, Booking } from '@/lib/types'
import { S } from '@/strings'
import { useBookingForm } from '../useBookingForm'
import { BookingMessages, SubmitBookingButton } from './BookingFormParts'
import { PatientFields } from './PatientFields'
import { PickupField } from './PickupField'

/**
 * The booking dialog behind 'Book Now' on a hospital's ambulances (docs/requirements.md, "Booking"). After a
 * booking it says so and the user is taken to /history 1.5 s later.
 */
export function BookingDialog({
  hospitalId,
  hospitalAt,
  ambulance,
  onClose,
  onConflict,
  onBooked,
}: {
  hospitalId: number
  /** Where the hospital is: the pickup map waits there until a pin is placed. */
  hospitalAt?: [number, number]
  ambulance: Ambulance
  onClose: () => void
  onConflict: () => void
  onBooked?: (booking: Booking) => void
}) {
  const form = useBookingForm({ idPrefix: 'dialog', onConflict, onBooked })

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    form.submit({ hospitalId: String(hospitalId), ambulanceId: String(ambulance.id) })
  }

  return (
    <Dialog title={S.bookingForm.dialogTitle(ambulance.number)} onClose={onClose}>
      <p className="-mt-2 mb-4 text-sm text-slate-600">
        {ambulanceTypeLabel[ambulance.type] ?? ambulance.type}
        {ambulance.driverInfo ? ` · ${S.adminAmbulances.driver(ambulance.driverInfo)}` : ''}
      </p>
      <BookingMessages form={form} className="mb-4 space-y-3 empty:hidden" />
      <form onSubmit={onSubmit} noValidate aria-label={S.bookingForm.dialogFormName} className="grid gap-4 sm:grid-cols-2">
        <PatientFields {...form.patientFields} />
        <PickupField {...form.pickupField} near={hospitalAt} />
        <div className="flex flex-col-reverse gap-3 sm:col-span-2 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={onClose}>
            {S.common.cancel}
          </button>
          <SubmitBookingButton form={form} />
        </div>
      </form>
    </Dialog>
  )
}
