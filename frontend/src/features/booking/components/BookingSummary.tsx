import { CallEmergency } from '@/components/CallEmergency'
import { Icon } from '@/components/Icon'
import { formatDistance, telHref } from '@/lib/format'
import type { Ambulance, Hospital } from '@/lib/types'
import { S } from '@/strings'

/** Beside the booking form: call 911 instead, and what has been chosen so far. */
export function BookingSummary({ hospital, distance, ambulance }: { hospital?: Hospital; distance?: number; ambulance?: Ambulance }) {
  return (
    <aside className="space-y-4" aria-label={S.bookingForm.summary}>
      <div className="card border-brand-100 bg-brand-50 p-5">
        <p className="font-semibold text-brand-800">{S.bookingForm.lifeThreatening}</p>
        <p className="mb-3 text-sm text-brand-800">{S.bookingForm.callNotWait}</p>
        <CallEmergency className="btn-primary w-full" />
      </div>
      {hospital && (
        <div className="card space-y-1 p-5 text-sm">
          <p className="flex items-center gap-2 font-semibold text-slate-900"><Icon name="hospital" /> {hospital.name}</p>
          <p className="text-slate-600">{hospital.address}</p>
          {distance != null && <p className="text-slate-600">{S.tracking.distance(formatDistance(distance))}</p>}
          {hospital.contactInfo && (
            <a href={telHref(hospital.contactInfo)} className="text-blue-700 hover:underline">
              {hospital.contactInfo}
            </a>
          )}
          {ambulance && (
            <p className="border-t border-slate-100 pt-2 text-slate-700">
              {S.tracking.ambulance}{' '}<span className="font-semibold">{ambulance.number}</span>
              {ambulance.driverInfo ? S.bookingForm.summaryDriver(ambulance.driverInfo) : ''}
            </p>
          )}
        </div>
      )}
    </aside>
  )
}
