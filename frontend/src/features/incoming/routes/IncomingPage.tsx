import { useEffect, useRef, useState } from 'react'
import { ConfirmAction } from '@/components/ConfirmDialog'
import { DeviceAlerts } from '@/components/DeviceAlerts'
import { Alert, EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { useNow } from '@/components/LiveClock'
import { LastUpdated } from '@/components/Offline'
import { PageHeader } from '@/components/PageHeader'
import { H } from '@/i18n/hospital'
import { ApiError, messageOf } from '@/lib/api'
import { ringsWhenLocked } from '@/lib/push/state'
import { usePush } from '@/lib/push/usePush'
import { beep, unlockAudioOnGesture } from '@/lib/sound'
import type { IncomingTrip } from '@/lib/types'
import { useWakeLock } from '@/lib/useWakeLock'
import { useHandover, useIncoming } from '../api/incoming'
import { boardSections, phaseOf, type Phase } from '../board'
import { DiversionPanel } from '../components/DiversionPanel'
import { TripCard } from '../components/TripCard'

/**
 * /hospital, for the receiving hospital's staff: the ambulances coming to it, most
 * urgent first (at the door, on the way, handed over), polled every 5 s with the ETAs
 * and waits ticking between answers; "Handover done" after arrival; the hospital's
 * diversion; and this device's alerts, so that a locked phone hears an ambulance set
 * off and arrive (without them the screen stays on and beeps for a new one).
 */
export default function IncomingPage() {
  const t = H().board
  const board = useIncoming()
  const now = useNow(1000).getTime()
  const handover = useHandover()
  const [asking, setAsking] = useState<IncomingTrip | null>(null)
  const [said, setSaid] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const push = usePush('hospital')
  const fallback = !ringsWhenLocked(push.view)
  const awake = useWakeLock(fallback)
  useEffect(() => (fallback ? unlockAudioOnGesture() : undefined), [fallback])
  useBeepOnNewArrival(board.data?.trips, fallback)

  if (board.isPending) return <Spinner label={t.loading} />
  if (board.isError) {
    const forbidden = board.error instanceof ApiError && board.error.status === 403
    return <ErrorState message={forbidden ? t.forbidden : t.failed} error={board.error} onRetry={forbidden ? undefined : () => board.refetch()} />
  }

  const { hospital, trips } = board.data
  const sections = boardSections(trips)
  const confirm = () => {
    if (!asking) return
    const trip = asking
    handover.mutate(trip.bookingId, {
      onSuccess: () => setSaid({ tone: 'success', text: t.handoverSaved(trip.bookingId) }),
      // 409: the crew recorded it first (or the trip moved on): said plainly, not as a failure of ours.
      onError: (error) =>
        setSaid({ tone: 'error', text: error instanceof ApiError && error.status === 409 ? t.handoverAlready : messageOf(error, t.handoverFailed) }),
      onSettled: () => setAsking(null),
    })
  }

  return (
    <div className="space-y-6">
      <PageHeader title={t.title} subtitle={`${t.subtitle(hospital.name)} ${t.live}`} />
      <LastUpdated updatedAt={board.dataUpdatedAt} failing={board.isRefetchError} />
      <DeviceAlerts push={push} awake={awake} text={H().push} />
      {said && <Alert tone={said.tone}>{said.text}</Alert>}
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem] lg:items-start">
        <div className="space-y-6">
          {sections.length === 0 ? (
            <EmptyState title={t.emptyTitle(hospital.name)} text={t.emptyText} />
          ) : (
            sections.map(({ phase, trips: part }) => (
              <section key={phase} aria-labelledby={`part-${phase}`} className="space-y-3">
                <h2 id={`part-${phase}`} className="text-lg font-semibold">
                  {partTitle(phase)} <span className="text-slate-500">({part.length})</span>
                </h2>
                <ul className="space-y-3">
                  {part.map((trip) => (
                    <li key={trip.bookingId}>
                      <TripCard trip={trip} answeredAt={board.dataUpdatedAt} now={now} onHandover={setAsking} />
                    </li>
                  ))}
                </ul>
              </section>
            ))
          )}
        </div>
        <DiversionPanel hospital={hospital} />
      </div>
      {asking && (
        <ConfirmAction
          title={t.handoverTitle(asking.bookingId)}
          confirmLabel={t.handoverConfirm}
          busyLabel={t.handoverBusy}
          busy={handover.isPending}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        >
          <p className="font-medium">{t.handoverQuestion(asking.ambulance.number)}</p>
          <p>{t.handoverNote}</p>
        </ConfirmAction>
      )}
    </div>
  )
}

const partTitle = (phase: Phase): string => {
  const t = H().board
  return phase === 'atDoor' ? t.atDoor : phase === 'onTheWay' ? t.onTheWay : t.done
}

/**
 * A beep (while shown, when this device cannot ring locked) and a buzz when a trip joins
 * the board on its way, or one on its way reaches the door; not for those there on opening.
 */
function useBeepOnNewArrival(trips: readonly IncomingTrip[] | undefined, sound: boolean) {
  const seen = useRef<Map<number, Phase> | null>(null)
  useEffect(() => {
    if (!trips) return
    const current = new Map(trips.map((trip) => [trip.bookingId, phaseOf(trip)] as const))
    const before = seen.current
    seen.current = current
    if (!before) return
    const news = [...current].some(([id, phase]) => phase !== 'done' && before.get(id) !== phase)
    if (!news) return
    navigator.vibrate?.([300, 150, 300])
    if (sound && document.visibilityState === 'visible') beep()
  }, [trips, sound])
}
