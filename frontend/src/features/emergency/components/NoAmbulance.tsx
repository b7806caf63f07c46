import { Icon } from '@/components/Icon'
import { formatDistance, telHref } from '@/lib/format'
import { S } from '@/strings'
import type { NearestHospital } from '@/lib/types'

/** The 409 "No ambulance is available near you": the 3 nearest hospitals to call (the emergency call button is just above). */
export function NoAmbulance({ message, hospitals, onRetry }: { message: string; hospitals: NearestHospital[]; onRetry: () => void }) {
  return (
    <section aria-labelledby="no-ambulance" className="card space-y-4 border-red-200 p-5">
      <div role="alert">
        <h2 id="no-ambulance" className="text-lg font-bold text-red-800">{message}</h2>
        <p className="text-slate-700">{hospitals.length > 0 ? S.emergency.noAmbulanceNext : S.emergency.noHospitals}</p>
      </div>
      {hospitals.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {hospitals.slice(0, 3).map((h) => (
            <li key={h.id} className="space-y-2 p-4">
              <div>
                <p className="font-semibold">{h.name}</p>
                <p className="text-sm text-slate-600">
                  {h.address}
                  {h.distance != null && <span> · {formatDistance(h.distance)}</span>}
                </p>
              </div>
              {h.contactInfo ? (
                <a href={telHref(h.contactInfo)} className="btn-touch w-full border border-slate-300 bg-white text-slate-900 hover:bg-slate-100">
                  <Icon name="phone" className="h-4 w-4 shrink-0" /> {S.emergency.callNumber(h.contactInfo)}
                  <span className="sr-only">, {h.name}</span>
                </a>
              ) : (
                <p className="text-sm text-slate-500">{S.emergency.noContact}</p>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn-secondary" onClick={onRetry}>{S.emergency.tryAgain}</button>
    </section>
  )
}
