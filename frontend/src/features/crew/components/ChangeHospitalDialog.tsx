import { Dialog } from '@/components/Dialog'
import { Alert, Spinner } from '@/components/Feedback'
import { useNow } from '@/components/LiveClock'
import { useNearestHospitals } from '@/features/hospitals'
import { H } from '@/i18n/hospital'
import { messageOf } from '@/lib/api'
import { formatDistance, formatTime } from '@/lib/format'
import type { LatLng } from '@/lib/geo'
import type { NearestHospital } from '@/lib/types'
import { S } from '@/strings'
import { divertedUntil } from '../destination'

/**
 * "Change hospital": the hospitals nearest the ambulance (else its pickup), each a big
 * button, those on diversion marked (they may still be chosen: the crew knows the
 * patient). The current destination is shown, not offered.
 */
export function ChangeHospitalDialog({
  from,
  currentId,
  busy,
  error,
  onChoose,
  onClose,
}: {
  from: LatLng
  currentId: number
  busy: boolean
  error: unknown
  onChoose: (hospital: NearestHospital) => void
  onClose: () => void
}) {
  const t = H().crew
  const now = useNow(30_000).getTime()
  const nearest = useNearestHospitals(from.latitude, from.longitude, 8)
  return (
    <Dialog title={t.changeTitle} onClose={onClose}>
      <div className="space-y-4">
        <p className="text-sm text-slate-600">{t.changeText}</p>
        {error != null && <Alert tone="error">{messageOf(error, t.changeFailed)}</Alert>}
        {nearest.isPending ? (
          <Spinner label={t.loadingNearest} />
        ) : nearest.isError ? (
          <Alert tone="error">{t.nearestFailed}</Alert>
        ) : nearest.data.length === 0 ? (
          <p>{t.noneNearby}</p>
        ) : (
          <ul className="space-y-2">
            {nearest.data.map((h) => {
              const until = divertedUntil(h, now)
              const current = h.id === currentId
              return (
                <li key={h.id}>
                  <button
                    type="button"
                    className={`btn-touch w-full flex-col items-start text-left ${until ? 'border-2 border-amber-500 bg-amber-50 text-amber-950 hover:bg-amber-100' : 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100'}`}
                    disabled={busy || current}
                    onClick={() => onChoose(h)}
                  >
                    <span className="font-semibold">
                      {t.choose(h.name)} <span className="font-normal">{` · ${formatDistance(h.distance)}${current ? ` · ${t.current}` : ''}`}</span>
                    </span>
                    {until && <span className="text-sm font-medium">{t.onDiversionShort(formatTime(until))}</span>}
                  </button>
                </li>
              )
            })}
          </ul>
        )}
        <div className="flex justify-end">
          <button type="button" className="btn-secondary" onClick={onClose}>
            {S.common.cancel}
          </button>
        </div>
      </div>
    </Dialog>
  )
}
