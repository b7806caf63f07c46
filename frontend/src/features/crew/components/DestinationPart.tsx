import { useState } from 'react'
import { Icon } from '@/components/Icon'
import { useNow } from '@/components/LiveClock'
import { H } from '@/i18n/hospital'
import { formatDistance, formatTime } from '@/lib/format'
import { directionsUrl, type LatLng } from '@/lib/geo'
import type { Booking, CrewMe, NearestHospital } from '@/lib/types'
import { S } from '@/strings'
import { useChangeDestination } from '../api/crew'
import { divertedUntil, mayChangeDestination } from '../destination'
import { ChangeHospitalDialog } from './ChangeHospitalDialog'
import { TouchLink } from './JobCard'

/**
 * The job's destination hospital: its name (marked while on diversion), directions to
 * it, and "Change hospital" until the ambulance is there. `onChanged` says the outcome.
 */
export function DestinationPart({
  job,
  destination,
  from,
  primary,
  onChanged,
}: {
  job: Booking
  destination: CrewMe['destination']
  /** Where the nearest hospitals are searched from: the ambulance, else the pickup. */
  from: LatLng | null
  primary: boolean
  onChanged: (name: string) => void
}) {
  const t = H().crew
  const now = useNow(30_000).getTime()
  const [choosing, setChoosing] = useState(false)
  const change = useChangeDestination()
  const name = destination?.name ?? job.destinationHospitalName
  const until = divertedUntil(destination, now)
  const choose = (h: NearestHospital) =>
    change.mutate(
      { bookingId: job.id, hospitalId: h.id },
      {
        onSuccess: () => {
          setChoosing(false)
          onChanged(h.name)
        },
      },
    )

  return (
    <>
      <p className="font-semibold">{name}</p>
      {until && (
        <p className="rounded-lg border border-amber-400 bg-amber-50 px-3 py-1 text-sm font-medium text-amber-950">
          {t.onDiversionShort(formatTime(until))}
        </p>
      )}
      <TouchLink href={directionsUrl(destination ?? name)} primary={primary} external>
        <Icon name="hospital" /> {S.crew.navigateToHospital} <span className="sr-only">{S.crew.opensMaps}</span>
      </TouchLink>
      {mayChangeDestination(job) && from && (
        <button
          type="button"
          className="btn-touch w-full border border-slate-300 bg-white text-slate-800 hover:bg-slate-100"
          onClick={() => {
            change.reset()
            setChoosing(true)
          }}
        >
          {t.change}
        </button>
      )}
      {choosing && from && (
        <ChangeHospitalDialog
          from={from}
          currentId={destination?.id ?? job.destinationHospitalId}
          busy={change.isPending}
          error={change.error}
          onChoose={choose}
          onClose={() => setChoosing(false)}
        />
      )}
    </>
  )
}

/**
 * The destination is on diversion and the patient is not on board yet: said plainly, with
 * the nearest open hospital one tap away (the server offers it in `alternative`).
 */
export function DiversionWarning({
  job,
  destination,
  alternative,
  onChanged,
  onFailed,
}: {
  job: Booking
  destination: CrewMe['destination']
  alternative: NearestHospital
  onChanged: (name: string) => void
  onFailed: (error: unknown) => void
}) {
  const t = H().crew
  const change = useChangeDestination()
  const until = destination?.onDiversionUntil
  return (
    <section aria-labelledby="diversion-warning" className="space-y-3 rounded-xl border-2 border-amber-500 bg-amber-50 p-4 text-amber-950">
      <h2 id="diversion-warning" className="flex items-center gap-2 text-lg font-bold">
        <Icon name="hospital" className="h-6 w-6 shrink-0" /> {t.onDiversion(destination?.name ?? job.destinationHospitalName, formatTime(until))}
      </h2>
      <p className="text-sm">{t.divertedText}</p>
      <button
        type="button"
        className="btn-touch w-full bg-amber-700 text-white hover:bg-amber-800"
        disabled={change.isPending}
        onClick={() =>
          change.mutate({ bookingId: job.id, hospitalId: alternative.id }, { onSuccess: () => onChanged(alternative.name), onError: onFailed })
        }
      >
        {change.isPending ? t.changing : t.switchTo(alternative.name, formatDistance(alternative.distance))}
      </button>
    </section>
  )
}
