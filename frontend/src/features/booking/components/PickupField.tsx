import { lazy, Suspense, useCallback } from 'react'
import { UseLocationButton } from '@/components/UseLocationButton'
import type { Point } from '@/components/map/BaseMap'
import { parseCoordinate } from '@/lib/coordinates'
import { S } from '@/strings'
import { MAX_LANDMARK, type BookingField, type PickupForm } from '../validation'
import { invalidStyle } from './BookingFormParts'

const PickupMap = lazy(() => import('./PickupMap'))

/** The spec's fixed coordinates: where the map waits when there is no pin and no hospital. */
const DEFAULT_CENTER: Point = [30.67, 74.33]

/** Six decimals: about 10 cm, more than a phone's fix is worth. */
const typed = (n: number) => n.toFixed(6)

/**
 * Where the ambulance should come: a draggable pin on a map (a tap moves it too), the
 * same point as two inputs (the keyboard's way to place it), "use my current location",
 * and a landmark. `near` centres the map while there is no pin (the chosen hospital).
 */
export function PickupField({
  idPrefix,
  value,
  invalid,
  error,
  near,
  noPinHelp = S.pickup.noPin,
  onChange,
}: {
  idPrefix: string
  value: PickupForm
  invalid: BookingField[]
  /** The message about the pickup, shown beside it when the pickup is marked. */
  error: string | null
  near?: Point
  /** What the help says while there is no pin (the booking form falls back on the profile). */
  noPinHelp?: string
  onChange: (patch: Partial<PickupForm>) => void
}) {
  const id = (name: string) => `${idPrefix}-${name}`
  const lat = parseCoordinate(value.latitude)
  const lng = parseCoordinate(value.longitude)
  const pin: Point | null = lat !== null && lng !== null && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? [lat, lng] : null
  const bad = invalid.includes('pickup')
  const badLandmark = invalid.includes('landmark')
  const describedBy = bad && error ? id('pickup-error') : undefined
  const move = useCallback((at: Point) => onChange({ latitude: typed(at[0]), longitude: typed(at[1]) }), [onChange])
  const coordinate = (name: 'latitude' | 'longitude', inputId: string, label: string) => (
    <div>
      <label htmlFor={inputId} className="label">{label}</label>
      <input
        id={inputId}
        className={`input ${bad ? invalidStyle : ''}`}
        inputMode="decimal"
        aria-invalid={bad || undefined}
        aria-describedby={describedBy}
        value={value[name]}
        onChange={(e) => onChange({ [name]: e.target.value })}
      />
    </div>
  )

  return (
    <fieldset className="space-y-3 sm:col-span-2" aria-describedby={id('pickup-help')}>
      <legend className="label">{S.pickup.legend}</legend>
      <p id={id('pickup-help')} className="text-sm text-slate-600">{pin ? S.pickup.help : noPinHelp}</p>
      <Suspense fallback={<div className="h-56 w-full animate-pulse rounded-xl bg-slate-100 sm:h-64" role="status">{S.mapLoading}</div>}>
        <PickupMap pin={pin} fallback={near ?? DEFAULT_CENTER} onMove={move} />
      </Suspense>
      {bad && error && (
        <p id={id('pickup-error')} className="text-sm font-medium text-red-700">{error}</p>
      )}
      <div className="grid grid-cols-2 gap-3">
        {/* The first input carries the pickup's id: a mark on `pickup` focuses it. */}
        {coordinate('latitude', id('pickup'), S.pickup.latitude)}
        {coordinate('longitude', id('pickup-longitude'), S.pickup.longitude)}
      </div>
      <UseLocationButton onLocated={(c) => move([c.latitude, c.longitude])} />
      <div>
        <label htmlFor={id('landmark')} className="label">{S.pickup.landmark}</label>
        <input
          id={id('landmark')}
          className={`input ${badLandmark ? invalidStyle : ''}`}
          maxLength={MAX_LANDMARK}
          aria-invalid={badLandmark || undefined}
          aria-describedby={id('landmark-hint')}
          value={value.landmark}
          onChange={(e) => onChange({ landmark: e.target.value })}
        />
        <p id={id('landmark-hint')} className="mt-1 flex justify-between gap-3 text-xs text-slate-500">
          <span>{S.pickup.landmarkHint}</span>
          <span aria-hidden="true">{value.landmark.length}/{MAX_LANDMARK}</span>
        </p>
      </div>
    </fieldset>
  )
}
