import { Icon } from '@/components/Icon'
import { formatDistance, telHref } from '@/lib/format'
import { S } from '@/strings'

/** A hospital to call when no ambulance could be sent. */
export interface Callable {
  key: string
  name: string
  address: string
  contactInfo: string | null
  /** km from the person, when it means something to them. */
  distance?: number | null
  /** Said after the name, e.g. "(the destination)". */
  note?: string
}

/**
 * The hospitals to call, each with one big call button (or "no phone number"): the
 * one list of the emergency's 409 and of the trip page's "Still looking".
 */
export function HospitalsToCall({ hospitals }: { hospitals: Callable[] }) {
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
      {hospitals.map((h) => (
        <li key={h.key} className="space-y-2 p-4">
          <div>
            <p className="font-semibold">
              {h.name} {h.note && <span className="font-normal text-slate-600">{h.note}</span>}
            </p>
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
  )
}
