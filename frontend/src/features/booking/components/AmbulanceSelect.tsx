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
    ? 'Select a hospital first'
    : available.isPending
      ? 'Loading ambulances...'
      : available.isError
        ? S.ambulancesFailed
        : ambulances?.length === 0
          ? 'No ambulances available at this hospital'
          : 'Select an ambulance'
  return (
    <div className="sm:col-span-2">
      <label htmlFor={`${idPrefix}-ambulanceId`} className="label">Available Ambulance</label>
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
          </option>
        ))}
      </select>
      {available.isError && (
        <button type="button" className="mt-1 text-sm font-semibold text-red-700 underline" onClick={() => void available.refetch()}>
          Try again
        </button>
      )}
    </div>
  )
}
