import { useCallback, useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { ApiError, messageOf } from '@/lib/api'
import { useSession } from '@/lib/session'
import type { Booking } from '@/lib/types'
import { S } from '@/strings'
import { useBook } from './api/bookings'
import {
  emptyPatient,
  emptyPickup,
  fieldOf,
  validateBooking,
  type BookingField,
  type BookingForm,
  type PatientForm,
  type PickupForm,
} from './validation'

const profilePickup = (user: { latitude?: number | null; longitude?: number | null } | undefined): PickupForm =>
  user?.latitude != null && user?.longitude != null
    ? { ...emptyPickup, latitude: String(user.latitude), longitude: String(user.longitude) }
    : emptyPickup

/** After a booking the user is taken to /history 1.5 s later (docs/requirements.md, "Booking"). */
export const REDIRECT_MS = 1500

/**
 * The patient's details and the sending of a booking, for the booking page and the
 * booking dialog. `submit` validates the details with the chosen hospital and
 * ambulance; on 409 (someone else got the ambulance) the server's message is shown and
 * `onConflict` refreshes the list; after a success the details are emptied,
 * `onBooked` runs and /history follows 1.5 s later.
 */
export function useBookingForm({
  idPrefix,
  onConflict,
  onBooked,
}: {
  idPrefix: string
  onConflict?: () => void
  onBooked?: (booking: Booking) => void
}) {
  const session = useSession()
  const navigate = useNavigate()
  const booking = useBook(session?.user.id)
  const [patient, setPatient] = useState<PatientForm>(emptyPatient)
  // The pin starts at the profile location, when there is one.
  const [pickup, setPickup] = useState<PickupForm>(() => profilePickup(session?.user))
  const [error, setError] = useState<string | null>(null)
  const [success, setSuccess] = useState<string | null>(null)
  const [invalid, setInvalid] = useState<BookingField[]>([])

  useEffect(() => {
    if (!success) return
    const t = setTimeout(() => navigate('/history'), REDIRECT_MS)
    return () => clearTimeout(t)
  }, [success, navigate])

  const fail = (message: string, fields: BookingField[] = []) => {
    setError(message)
    setInvalid(fields)
    if (fields[0]) document.getElementById(`${idPrefix}-${fields[0]}`)?.focus()
  }

  const onPickupChange = useCallback((patch: Partial<PickupForm>) => {
    setPickup((p) => ({ ...p, ...patch }))
    const touched: BookingField[] = 'landmark' in patch ? ['landmark'] : ['pickup']
    setInvalid((list) => list.filter((f) => !touched.includes(f)))
  }, [])

  const submit = (selection: Pick<BookingForm, 'hospitalId' | 'ambulanceId'>) => {
    setError(null)
    setInvalid([])
    if (!session) {
      fail(S.loginToBook)
      return
    }
    const check = validateBooking({ ...patient, ...selection, pickup })
    if (!check.request) {
      fail(check.error ?? S.fillRequired, check.fields)
      return
    }
    booking.book(check.request, {
      onSuccess: (created) => {
        setSuccess(S.bookingSuccess)
        setPatient(emptyPatient)
        setPickup(profilePickup(session.user))
        onBooked?.(created)
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 409) {
          fail(messageOf(err, S.bookingFailed), ['ambulanceId'])
          onConflict?.()
          return
        }
        const field = err instanceof ApiError ? fieldOf(err.field) : undefined
        fail(messageOf(err, S.bookingFailed), field ? [field] : [])
      },
    })
  }

  const clearInvalid = (fields: BookingField[]) => setInvalid((list) => list.filter((f) => !fields.includes(f)))

  return {
    submit,
    error,
    success,
    invalid,
    clearInvalid,
    pending: booking.isPending,
    patient,
    /** Props for <PickupField> (give it `near`, the chosen hospital, where there is one). */
    pickupField: {
      idPrefix,
      value: pickup,
      invalid,
      error: invalid.includes('pickup') ? error : null,
      onChange: onPickupChange,
    },
    /** Props for <PatientFields>: an edit clears the mark on the fields it touches. */
    patientFields: {
      idPrefix,
      value: patient,
      invalid,
      onChange: (patch: Partial<PatientForm>) => {
        setPatient((p) => ({ ...p, ...patch }))
        clearInvalid(Object.keys(patch) as BookingField[])
      },
    },
  }
}

export type BookingFormState = ReturnType<typeof useBookingForm>
