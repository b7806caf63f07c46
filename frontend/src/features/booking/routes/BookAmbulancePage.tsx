import { useMemo, useState, type FormEvent } from 'react'
import { Link, useSearchParams } from 'react-router'
import { Alert } from '@/components/Feedback'
import { Icon } from '@/components/Icon'
import { ambulanceTypeLabel, formatDistance, telHref } from '@/lib/format'
import { useSession } from '@/lib/session'
import type { Hospital, NearestHospital } from '@/lib/types'
import { S } from '@/strings'
import { useAvailableAmbulances } from '@/features/ambulances'
import { useAllHospitals, useNearestHospitals } from '@/features/hospitals'
import { invalidStyle, PatientFields, submitLabel } from '../components/PatientFields'
import { useBookingSubmit } from '../useBookingSubmit'
import { emptyPatient, type BookingField, type BookingForm, type PatientForm } from '../validation'

const PREFIX = 'book'
/** Nearest first: up to 50 by distance, then every other hospital by name. */
const NEAREST_LIMIT = 50

const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? value : '')

/** Nearest hospitals (with distance) first, then the rest of the list, without repeats. */
export function orderHospitals(nearest: NearestHospital[] | undefined, all: Hospital[] | undefined) {
  const near = nearest ?? []
  const seen = new Set(near.map((h) => h.id))
  const rest = (all ?? []).filter((h) => !seen.has(h.id)).sort((a, b) => a.name.localeCompare(b.name))
  return { near, rest }
}

export default function BookAmbulancePage() {
  const [params] = useSearchParams()
  const user = useSession()?.user
  const lat = user?.latitude ?? null
  const lng = user?.longitude ?? null
  const located = lat !== null && lng !== null
  const nearest = useNearestHospitals(located ? lat : null, located ? lng : null, NEAREST_LIMIT)
  const all = useAllHospitals()

  const initial = useMemo(
    () => ({ hospitalId: idParam(params.get('hospitalId')), ambulanceId: idParam(params.get('ambulanceId')) }),
    [params],
  )
  const [selection, setSelection] = useState(initial)
  const [patient, setPatient] = useState<PatientForm>(emptyPatient)
  // An ambulance preselected by the link that has since gone; said once, then cleared.
  const [gone, setGone] = useState(false)

  const hospitalId = selection.hospitalId ? Number(selection.hospitalId) : null
  const available = useAvailableAmbulances(hospitalId)
  const ambulances = available.data
  const preselectedMissing =
    selection.ambulanceId !== '' && ambulances !== undefined && !ambulances.some((a) => String(a.id) === selection.ambulanceId)
  if (preselectedMissing) {
    // Adjusting state while rendering (not in an effect): React re-renders at once.
    setSelection((s) => ({ ...s, ambulanceId: '' }))
    setGone(true)
  }

  const { submit, error, success, invalid, clearInvalid, pending } = useBookingSubmit({
    idPrefix: PREFIX,
    onConflict: () => {
      setSelection((s) => ({ ...s, ambulanceId: '' }))
      void available.refetch()
    },
    onBooked: () => {
      setPatient(emptyPatient)
      setSelection({ hospitalId: '', ambulanceId: '' })
    },
  })

  const { near, rest } = orderHospitals(nearest.data, all.data)
  const hospitalsLoading = all.isPending && (!located || nearest.isPending)
  const hospitalsFailed = all.isError && (!located || nearest.isError)
  const chosenNear = near.find((h) => String(h.id) === selection.hospitalId)
  const chosenHospital = chosenNear ?? rest.find((h) => String(h.id) === selection.hospitalId)
  const chosenAmbulance = ambulances?.find((a) => String(a.id) === selection.ambulanceId)

  const form: BookingForm = { ...patient, ...selection }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    submit(form)
  }
  const bad = (f: BookingField) => invalid.includes(f)
  const cls = (f: BookingField) => `input ${bad(f) ? invalidStyle : ''}`

  return (
    <div className="mx-auto grid max-w-5xl gap-6 lg:grid-cols-[1fr_18rem]">
      <div className="card p-6 sm:p-8">
        <h1 className="mb-1 text-2xl font-bold">Book an Ambulance</h1>
        <p className="mb-6 text-sm text-slate-600">
          Choose a hospital and one of its available ambulances, then tell us about the patient.
        </p>
        <div className="mb-4 space-y-3" aria-live="polite">
          {success && <Alert tone="success">{success} Taking you to your booking history...</Alert>}
          {error && <Alert tone="error">{error}</Alert>}
          {gone && !error && <Alert tone="warning">{S.ambulanceGone}</Alert>}
        </div>
        <form onSubmit={onSubmit} noValidate aria-label="Book an ambulance" className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <label htmlFor={`${PREFIX}-hospitalId`} className="label">Hospital</label>
            <select
              id={`${PREFIX}-hospitalId`}
              className={cls('hospitalId')}
              aria-invalid={bad('hospitalId') || undefined}
              aria-describedby={hospitalsFailed ? `${PREFIX}-hospital-error` : undefined}
              required
              disabled={hospitalsLoading}
              value={selection.hospitalId}
              onChange={(e) => {
                setSelection({ hospitalId: e.target.value, ambulanceId: '' })
                setGone(false)
                clearInvalid(['hospitalId', 'ambulanceId'])
              }}
            >
              <option value="">{hospitalsLoading ? 'Loading hospitals...' : 'Select a hospital'}</option>
              {near.length > 0 && (
                <optgroup label="Nearest to you">
                  {near.map((h) => (
                    <option key={h.id} value={h.id}>
                      {h.name} ({formatDistance(h.distance)})
                    </option>
                  ))}
                </optgroup>
              )}
              {rest.length > 0 &&
                (near.length > 0 ? (
                  <optgroup label="Other hospitals">
                    {rest.map((h) => (
                      <option key={h.id} value={h.id}>{h.name}</option>
                    ))}
                  </optgroup>
                ) : (
                  rest.map((h) => (
                    <option key={h.id} value={h.id}>{h.name}</option>
                  ))
                ))}
            </select>
            {hospitalsFailed && (
              <p id={`${PREFIX}-hospital-error`} className="mt-1 text-sm text-red-700">
                {S.hospitalsFailed}.{' '}
                <button type="button" className="font-semibold underline" onClick={() => { void all.refetch(); void nearest.refetch() }}>
                  Try again
                </button>
              </p>
            )}
            {!located && !hospitalsLoading && (
              <p className="mt-1 text-xs text-slate-500">
                <Link to="/profile" className="text-blue-700 hover:underline">Add your location</Link> to see the nearest hospitals first.
              </p>
            )}
          </div>
          <div className="sm:col-span-2">
            <label htmlFor={`${PREFIX}-ambulanceId`} className="label">Available Ambulance</label>
            <select
              id={`${PREFIX}-ambulanceId`}
              className={cls('ambulanceId')}
              aria-invalid={bad('ambulanceId') || undefined}
              required
              disabled={!selection.hospitalId || available.isPending}
              value={selection.ambulanceId}
              onChange={(e) => {
                setSelection((s) => ({ ...s, ambulanceId: e.target.value }))
                setGone(false)
                clearInvalid(['ambulanceId'])
              }}
            >
              <option value="">
                {!selection.hospitalId
                  ? 'Select a hospital first'
                  : available.isPending
                    ? 'Loading ambulances...'
                    : available.isError
                      ? S.ambulancesFailed
                      : ambulances?.length === 0
                        ? 'No ambulances available at this hospital'
                        : 'Select an ambulance'}
              </option>
              {ambulances?.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.number} · {ambulanceTypeLabel[a.type] ?? a.type}
                  {a.driverInfo ? ` · ${a.driverInfo}` : ''}
                </option>
              ))}
            </select>
            {available.isError && (
              <button type="button" className="mt-1 text-sm font-semibold text-red-700 underline" onClick={() => void available.refetch()}>
                Try again
              </button>
            )}
          </div>
          <PatientFields
            idPrefix={PREFIX}
            value={patient}
            invalid={invalid}
            onChange={(patch) => {
              setPatient((p) => ({ ...p, ...patch }))
              clearInvalid(Object.keys(patch) as BookingField[])
            }}
          />
          <div className="sm:col-span-2">
            <button
              type="submit"
              className={`w-full ${patient.bookingType === 'EMERGENCY' ? 'btn-primary' : 'btn-blue'}`}
              disabled={pending || !!success}
            >
              <Icon name="ambulance" /> {submitLabel(patient.bookingType, pending)}
            </button>
          </div>
        </form>
      </div>
      <aside className="space-y-4" aria-label="Booking summary">
        <div className="card border-brand-100 bg-brand-50 p-5">
          <p className="font-semibold text-brand-800">Life-threatening emergency?</p>
          <p className="mb-3 text-sm text-brand-800">Call now; do not wait for a booking.</p>
          <a href={`tel:${S.emergencyNumber}`} className="btn-primary w-full">
            <Icon name="phone" /> Call {S.emergencyNumber}
          </a>
        </div>
        {chosenHospital && (
          <div className="card space-y-1 p-5 text-sm">
            <p className="flex items-center gap-2 font-semibold text-slate-900"><Icon name="hospital" /> {chosenHospital.name}</p>
            <p className="text-slate-600">{chosenHospital.address}</p>
            {chosenNear && <p className="text-slate-600">{formatDistance(chosenNear.distance)} away</p>}
            {chosenHospital.contactInfo && (
              <a href={telHref(chosenHospital.contactInfo)} className="text-blue-700 hover:underline">
                {chosenHospital.contactInfo}
              </a>
            )}
            {chosenAmbulance && (
              <p className="border-t border-slate-100 pt-2 text-slate-700">
                Ambulance <span className="font-semibold">{chosenAmbulance.number}</span>
                {chosenAmbulance.driverInfo ? `, driver ${chosenAmbulance.driverInfo}` : ''}
              </p>
            )}
          </div>
        )}
      </aside>
    </div>
  )
}
