import type { BookingType } from '@/lib/types'
import { bookingTypeLabel } from '@/lib/trip/status'
import { requiredField } from './BookingFormParts'
import { genders, MAX_CONDITION, MAX_NAME, type BookingField, type PatientForm } from '../validation'
import { S } from '@/strings'

/** The booking types, each with what it is for (its name: bookingTypeLabel). */
const types: { value: BookingType; description: () => string }[] = [
  { value: 'NORMAL', description: () => S.patient.normalText },
  { value: 'EMERGENCY', description: () => S.patient.emergencyText },
]

/**
 * Booking type radio and the patient's name, age, gender and medical condition.
 * `details`: the patient alone, no booking type (an emergency's, sent after it).
 */
export function PatientFields({
  idPrefix,
  value,
  invalid,
  details = false,
  onChange,
}: {
  idPrefix: string
  value: PatientForm
  invalid: BookingField[]
  details?: boolean
  onChange: (patch: Partial<PatientForm>) => void
}) {
  const id = (name: string) => `${idPrefix}-${name}`
  const field = (f: BookingField) => requiredField(idPrefix, invalid, f)

  return (
    <>
      {!details && <BookingTypeChoice idPrefix={idPrefix} value={value.bookingType} onChange={(bookingType) => onChange({ bookingType })} />}
      <div className="sm:col-span-2">
        <label htmlFor={id('name')} className="label">{S.patient.name}</label>
        <input
          {...field('name')}
          autoComplete="name"
          maxLength={MAX_NAME}
          value={value.name}
          onChange={(e) => onChange({ name: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor={id('age')} className="label">{S.patient.age}</label>
        <input
          {...field('age')}
          type="number"
          inputMode="numeric"
          min={0}
          max={150}
          step={1}
          value={value.age}
          onChange={(e) => onChange({ age: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor={id('gender')} className="label">{S.patient.gender}</label>
        <select {...field('gender')} value={value.gender} onChange={(e) => onChange({ gender: e.target.value })}>
          <option value="">{S.patient.selectGender}</option>
          {genders.map((g) => (
            <option key={g} value={g}>{S.patient.genders[g]}</option>
          ))}
        </select>
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={id('condition')} className="label">{S.patient.condition}</label>
        <textarea
          {...field('condition')}
          rows={3}
          maxLength={MAX_CONDITION}
          placeholder={S.patient.conditionPlaceholder}
          value={value.condition}
          onChange={(e) => onChange({ condition: e.target.value })}
        />
      </div>
    </>
  )
}

/** Normal or emergency, as two labelled radio cards. */
function BookingTypeChoice({ idPrefix, value, onChange }: { idPrefix: string; value: BookingType; onChange: (type: BookingType) => void }) {
  const id = (name: string) => `${idPrefix}-${name}`
  return (
    <fieldset className="sm:col-span-2">
      <legend className="label">{S.patient.bookingType}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {types.map((t) => {
          const checked = value === t.value
          const emergency = t.value === 'EMERGENCY'
          return (
            <label
              key={t.value}
              htmlFor={id(`type-${t.value}`)}
              className={`flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition ${
                checked
                  ? emergency
                    ? 'border-brand-500 bg-brand-50'
                    : 'border-blue-500 bg-blue-50'
                  : 'border-slate-300 hover:bg-slate-50'
              }`}
            >
              <input
                id={id(`type-${t.value}`)}
                type="radio"
                name={id('type')}
                value={t.value}
                checked={checked}
                onChange={() => onChange(t.value)}
                className={`mt-1 ${emergency ? 'accent-brand-600' : 'accent-blue-600'}`}
                aria-describedby={id(`type-${t.value}-desc`)}
              />
              <span>
                <span className={`block font-semibold ${emergency ? 'text-brand-700' : 'text-slate-900'}`}>{bookingTypeLabel[t.value]}</span>
                <span id={id(`type-${t.value}-desc`)} className="block text-sm text-slate-600">
                  {t.description()}
                </span>
              </span>
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}
