import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { Alert as Notice } from '@/components/Feedback'
import { Dialog } from '@/components/Dialog'
import { useNow } from '@/components/LiveClock'
import { messageOf } from '@/lib/api'
import { Icon } from '@/components/Icon'
import { PresenceBadge } from '@/components/PresenceBadge'
import { ambulanceTypeLabel, formatAge, formatDistance, formatEta, telHref } from '@/lib/format'
import type { Alert, FreeAmbulance } from '@/lib/types'
import { S } from '@/strings'
import { isOpen, useAcknowledgeAlert, useAlerts, useFreeNear, useReassign } from '../api/alerts'
import { beep, unlockAudioOnGesture } from '@/lib/sound'

/** Kinds whose booking the dispatcher can send another ambulance to. */
const REASSIGNABLE: ReadonlySet<Alert['kind']> = new Set(['UNANSWERED', 'NO_AMBULANCE', 'CALL_STATION'])

/**
 * The dispatcher's open alerts, oldest first, polled every 5 s: what each is, which
 * ambulance, how long ago, the booking; acknowledge, or reassign the booking to a
 * nearby free ambulance. A new alert beeps and the tab's title counts the open ones.
 */
export function AlertsPanel() {
  const alerts = useAlerts()
  const now = useNow(5000).getTime()
  const open = (alerts.data ?? []).filter(isOpen)
  const [reassigning, setReassigning] = useState<Alert | null>(null)
  const [done, setDone] = useState<string | null>(null)

  useNewAlertSound(alerts.data)
  useTitleCount(alerts.data ? open.length : null)

  return (
    <section aria-labelledby="alerts-heading" className="card space-y-3 p-4">
      <h2 id="alerts-heading" className="flex items-center gap-2 text-lg font-semibold">
        {open.length > 0 && <span aria-hidden="true" className="h-2.5 w-2.5 animate-pulse rounded-full bg-red-600" />}
        {alerts.data ? S.alerts.headingCount(open.length) : S.alerts.heading}
      </h2>
      {done && <Notice tone="success">{done}</Notice>}
      {alerts.isPending ? (
        <p role="status" className="text-slate-600">{S.alerts.loading}</p>
      ) : alerts.isError && !alerts.data ? (
        <div className="flex flex-wrap items-center gap-3">
          <p role="alert" className="text-red-700">{S.alerts.failed}</p>
          <button type="button" className="btn-secondary" onClick={() => alerts.refetch()}>
            {S.emergency.tryAgain}
          </button>
        </div>
      ) : open.length === 0 ? (
        <p className="text-slate-600">{S.alerts.none}</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {open.map((a) => (
            <AlertRow key={a.id} alert={a} now={now} onReassign={() => { setDone(null); setReassigning(a) }} />
          ))}
        </ul>
      )}
      {reassigning && reassigning.bookingId != null && (
        <ReassignDialog
          alert={reassigning}
          bookingId={reassigning.bookingId}
          onClose={() => setReassigning(null)}
          onDone={(number) => {
            setDone(S.alerts.reassigned(reassigning.bookingId!, number))
            setReassigning(null)
          }}
        />
      )}
    </section>
  )
}

function AlertRow({ alert, now, onReassign }: { alert: Alert; now: number; onReassign: () => void }) {
  const ack = useAcknowledgeAlert()
  const canReassign = alert.bookingId != null && REASSIGNABLE.has(alert.kind)
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium text-red-800">{S.alerts.kind[alert.kind]}</p>
        <p className="flex flex-wrap gap-x-3 text-sm text-slate-700">
          {alert.ambulanceNumber && <span>{S.alerts.ambulance(alert.ambulanceNumber)}</span>}
          {/* A NO_AMBULANCE alert counts every emergency of its area that found nobody. */}
          {alert.count != null && alert.count > 1 && <span>{S.alerts.calls(alert.count)}</span>}
          {alert.bookingId != null && (
            <Link to={`/bookings/${alert.bookingId}`} className="font-medium text-blue-700 hover:underline">
              {S.alerts.booking(alert.bookingId)}
            </Link>
          )}
          <time dateTime={alert.since} className="text-slate-600">
            {S.alerts.ago(formatAge(now - Date.parse(alert.since)))}
          </time>
        </p>
        {alert.moves != null && alert.moves > 0 && <p className="text-sm text-slate-700">{S.alerts.moves(alert.moves)}</p>}
        {/* A crew that is not online: a person phones its station now (decision 0020). */}
        {alert.kind === 'CALL_STATION' &&
          (alert.phone ? (
            <a href={telHref(alert.phone)} className="btn-blue mt-2 w-fit">
              <Icon name="phone" className="h-4 w-4" /> {S.alerts.callStation(alert.hospitalName ?? alert.phone)}{' '}
              <span className="font-normal">{alert.phone}</span>
            </a>
          ) : (
            <p className="text-sm text-slate-700">{S.alerts.noPhone}</p>
          ))}
        {ack.isError && <p role="alert" className="mt-1 text-sm text-red-700">{messageOf(ack.error, S.alerts.ackFailed)}</p>}
      </div>
      <div className="flex shrink-0 gap-2">
        {canReassign && (
          <button type="button" className="btn-primary" onClick={onReassign}>
            {S.alerts.reassign}
          </button>
        )}
        <button type="button" className="btn-secondary" disabled={ack.isPending} onClick={() => ack.mutate(alert.id)}>
          {ack.isPending ? S.alerts.acknowledging : S.alerts.acknowledge}
        </button>
      </div>
    </li>
  )
}

/** The nearest free ambulances to the alert's pickup; one click sends one. */
function ReassignDialog({ alert, bookingId, onClose, onDone }: { alert: Alert; bookingId: number; onClose: () => void; onDone: (number: string) => void }) {
  const pickup = alert.pickup ?? null
  const free = useFreeNear(pickup)
  const reassign = useReassign()
  const [chosen, setChosen] = useState<number | null>(null)
  // Focus starts on Close, never on an ambulance: Enter must not send one unchosen.
  const close = useRef<HTMLButtonElement>(null)
  const choose = (a: FreeAmbulance) => {
    setChosen(a.id)
    reassign.mutate({ bookingId, ambulanceId: a.id }, { onSuccess: () => onDone(a.number) })
  }
  return (
    <Dialog title={S.alerts.reassignTitle(bookingId)} onClose={onClose} initialFocus={close}>
      {/* Ranked as an emergency ranks them (decision 0020): the drive plus the crew's expected answer. */}
      <div className="space-y-4">
        {reassign.isError && <Notice tone="error">{messageOf(reassign.error, S.alerts.reassignFailed)}</Notice>}
        {!pickup ? (
          <p className="text-slate-700">{S.alerts.noPickup}</p>
        ) : free.isPending ? (
          <p role="status" className="text-slate-600">{S.alerts.freeLoading}</p>
        ) : free.isError ? (
          <Notice tone="error">{messageOf(free.error, S.alerts.freeFailed)}</Notice>
        ) : free.data.length === 0 ? (
          <p className="text-slate-700">{S.alerts.noneFree}</p>
        ) : (
          <>
            <p className="text-sm text-slate-600">{S.alerts.reassignHelp}</p>
            <ul className="space-y-2">
              {free.data.map((a) => (
                <li key={a.id}>
                  <button
                    type="button"
                    aria-label={S.alerts.chooseWith(a.number, formatDistance(a.distanceKm), formatEta(a.etaMinutes), S.presence[a.crewPresence])}
                    disabled={reassign.isPending}
                    onClick={() => choose(a)}
                    className="flex w-full items-center justify-between gap-3 rounded-lg border border-slate-200 px-4 py-3 text-left hover:border-blue-400 hover:bg-blue-50 disabled:opacity-60"
                  >
                    <span className="space-y-1">
                      <span className="block font-medium">{a.number}</span>
                      <span className="block text-sm text-slate-600">{ambulanceTypeLabel[a.type] ?? a.type}</span>
                      <PresenceBadge presence={a.crewPresence} />
                    </span>
                    <span className="shrink-0 text-right font-medium text-slate-800">
                      {reassign.isPending && chosen === a.id ? (
                        S.alerts.reassigning
                      ) : (
                        <>
                          {formatDistance(a.distanceKm)}
                          <span className="block text-sm font-normal text-slate-600">{formatEta(a.etaMinutes)}</span>
                        </>
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
        <div className="flex justify-end">
          <button ref={close} type="button" className="btn-secondary" onClick={onClose}>
            {S.alerts.close}
          </button>
        </div>
      </div>
    </Dialog>
  )
}

/**
 * Beeps when an open alert appears that the last answer did not have. The first
 * answer only sets what is known: opening the page is not news.
 */
function useNewAlertSound(data: Alert[] | undefined) {
  const known = useRef<Set<number> | null>(null)
  useEffect(() => unlockAudioOnGesture(), [])
  useEffect(() => {
    if (!data) return
    const openIds = data.filter(isOpen).map((a) => a.id)
    const seen = known.current
    known.current = new Set(openIds)
    if (seen && openIds.some((id) => !seen.has(id))) beep()
  }, [data])
}

/** The tab's title counts the open alerts while the panel is shown; the old title comes back after. */
function useTitleCount(count: number | null) {
  useEffect(() => {
    const before = document.title
    return () => {
      document.title = before
    }
  }, [])
  useEffect(() => {
    if (count !== null) document.title = S.alerts.pageTitle(count)
  }, [count])
}
