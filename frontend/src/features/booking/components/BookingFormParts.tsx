import type { ReactNode } from 'react'
import { Alert } from '@/components/Feedback'
import { Icon } from '@/components/Icon'
import type { BookingFormState } from '../useBookingForm'
import type { BookingField } from '../validation'
import { S } from '@/strings'

export const invalidStyle = 'border-red-500 ring-2 ring-red-100'

/** What a required booking field carries: its id, and the invalid look and state when marked. */
export function requiredField(idPrefix: string, invalid: BookingField[], field: BookingField) {
  const bad = invalid.includes(field)
  return {
    id: `${idPrefix}-${field}`,
    className: `input ${bad ? invalidStyle : ''}`,
    'aria-invalid': bad || undefined,
    required: true,
  }
}

/** The booking's outcome, announced politely: booked (and off to /history), or why not. */
export function BookingMessages({
  form,
  className,
  children,
}: {
  form: Pick<BookingFormState, 'success' | 'error'>
  className: string
  children?: ReactNode
}) {
  return (
    <div className={className} aria-live="polite">
      {form.success && <Alert tone="success">{form.success} {S.patient.toHistory}</Alert>}
      {form.error && <Alert tone="error">{form.error}</Alert>}
      {children}
    </div>
  )
}

/**
 * 'Book Ambulance', or 'Book Emergency Ambulance' in red for an emergency; 'Booking...'
 * while it is sent, and disabled from then on once booked. The page's is full width
 * with an ambulance icon.
 */
export function SubmitBookingButton({ form, wide = false }: { form: BookingFormState; wide?: boolean }) {
  const emergency = form.patient.bookingType === 'EMERGENCY'
  const tone = emergency ? 'btn-primary' : 'btn-blue'
  const label = form.pending ? S.bookingForm.submitting : emergency ? S.bookingForm.bookEmergency : S.nav.book
  return (
    <button type="submit" className={wide ? `w-full ${tone}` : tone} disabled={form.pending || !!form.success}>
      {wide ? (
        <>
          <Icon name="ambulance" /> {label}
        </>
      ) : (
        label
      )}
    </button>
  )
}
