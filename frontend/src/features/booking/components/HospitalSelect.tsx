import { Link } from 'react-router'
import { formatDistance } from '@/lib/format'
import { S } from '@/strings'
import type { HospitalChoices } from '../useHospitalChoices'
import type { BookingField } from '../validation'
import { requiredField } from './BookingFormParts'

/** The booking form's hospital: 'Nearest to you' (with distance), then 'Other hospitals'. */
export function HospitalSelect({
  idPrefix,
  choices,
  value,
  invalid,
  onChange,
}: {
  idPrefix: string
  choices: HospitalChoices
  value: string
  invalid: BookingField[]
  onChange: (hospitalId: string) => void
}) {
  const { near, rest, loading, failed, located } = choices
  const errorId = `${idPrefix}-hospital-error`
  const options = rest.map((h) => (
    <option key={h.id} value={h.id}>{h.name}</option>
  ))
  return (
    <div className="sm:col-span-2">
      <label htmlFor={`${idPrefix}-hospitalId`} className="label">{S.tracking.hospital}</label>
      <select
        {...requiredField(idPrefix, invalid, 'hospitalId')}
        aria-describedby={failed ? errorId : undefined}
        disabled={loading}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{loading ? S.bookingForm.loadingHospitals : S.adminAmbulances.chooseHospital}</option>
        {near.length > 0 && (
          <optgroup label={S.bookingForm.nearest}>
            {near.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name} ({formatDistance(h.distance)})
              </option>
            ))}
          </optgroup>
        )}
        {rest.length > 0 && (near.length > 0 ? <optgroup label={S.bookingForm.others}>{options}</optgroup> : options)}
      </select>
      {failed && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {S.hospitalsFailed}{'. '}
          <button type="button" className="font-semibold underline" onClick={choices.retry}>
            {S.emergency.tryAgain}
          </button>
        </p>
      )}
      {!located && !loading && (
        <p className="mt-1 text-xs text-slate-500">
          <Link to="/profile" className="text-blue-700 hover:underline">{S.bookingForm.addLocation}</Link>{S.bookingForm.addLocationRest}
        </p>
      )}
    </div>
  )
}
