import type { UseQueryResult } from '@tanstack/react-query'
import { ambulanceTypeLabel } from '@/lib/format'
import type { Ambulance } from '@/lib/types'
import { S } from '@/strings'
import type { BookingField } from '../validation'
import { requiredField } from './BookingFormParts'

/** The booking form's ambulance: the chosen hospital's available ones, or why there are none. */
export function AmbulanceSelect({
  idPrefix,
  hospitalId,
  available,
  value,
  invalid,
  onChange,
}: {
  idPrefix: string
  hospitalId: string
  available: UseQueryResult<Ambulance[]>
  value: string
  invalid: BookingField[]
  onChange: (ambulanceId: string) => void
}) {
  const ambulances = available.data
  const prompt = !hospitalId
    ? S.bookingForm.hospitalFirst
    : available.isPending
      ? S.bookingForm.loadingAmbulances
      : available.isError
        ? S.ambulancesFailed
        : ambulances?.length === 0
          ? S.bookingForm.noAmbulances
          : S.crewAdmin.chooseAmbulance
  return (
    <div className="sm:col-span-2">
      <label htmlFor={`${idPrefix}-ambulanceId`} className="label">{S.bookingForm.ambulanceLabel}</label>
      <select
        {...requiredField(idPrefix, invalid, 'ambulanceId')}
        disabled={!hospitalId || available.isPending}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{prompt}</option>
        {ambulances?.map((a) => (
          <option key={a.id} value={a.id}>
            {a.number} · {ambulanceTypeLabel[a.type] ?? a.type}
            {a.driverInfo ? ` · ${a.driverInfo}` : ''}
            {/* Whether its crew would see the job now (decision 0020): a crew that is not gets a call. */}
            {a.crewPresence ? ` · ${S.presence[a.crewPresence]}` : ''}
          </option>
        ))}
      </select>
      {available.isError && (
        <button type="button" className="mt-1 text-sm font-semibold text-red-700 underline" onClick={() => void available.refetch()}>
          {S.emergency.tryAgain}
        </button>
      )}
    </div>
  )
}
