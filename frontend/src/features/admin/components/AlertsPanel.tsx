import { type KeyboardEvent, memo, useEffect, useMemo, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { Link, useNavigate } from 'react-router'
import { Alert as Notice } from '@/components/Feedback'
import { Dialog } from '@/components/Dialog'
import { useNow } from '@/components/LiveClock'
import { messageOf } from '@/lib/api'
import { Icon } from '@/components/Icon'
import { PresenceBadge } from '@/components/PresenceBadge'
import { ambulanceTypeLabel, formatCoord, formatDistance, formatEta, telHref } from '@/lib/format'
import type { Alert, AlertKind, FreeAmbulance } from '@/lib/types'
import { S } from '@/strings'
import { BookingTypeBadge } from '@/features/booking'
import { isOpen, useAcknowledgeMany, useAlerts, useFreeNear, useReassign } from '../api/alerts'
import { elapsed, kindCounts, type QueueRow, queueRows } from '../api/queue'
import { A } from '../strings'
import { beep, unlockAudioOnGesture } from '@/lib/sound'

/**
 * The dispatcher's queue (docs/decisions/0024-a-console-row-acts-alone.md): the open
 * alerts, most urgent first, polled every 5 s, those of one booking in one row that says
 * what, which booking, where, how long it has waited, which ambulance and its crew, and
 * whom to call; Reassign, Call, Acknowledge on each, "Acknowledge all" for a kind. The
 * keyboard moves between rows (arrows), opens the booking (Enter), reassigns (R) and
 * acknowledges (A). Choosing a row tells `onSelect` (the console centres its map there).
 * A new alert beeps and the tab's title counts the open ones.
 */
// Memoised: the console's page re-draws every 5 s for its own lists; the queue only when its alerts or its choice change.
export const AlertsPanel = memo(function AlertsPanel({
  selected = null,
  onSelect,
  height = '',
}: {
  selected?: string | null
  onSelect?: (row: QueueRow) => void
  /** Classes capping its height (the console's desktop column). */
  height?: string
}) {
  const alerts = useAlerts()
  const open = useMemo(() => (alerts.data ?? []).filter(isOpen), [alerts.data])
  const rows = useMemo(() => queueRows(open), [open])
  const [reassigning, setReassigning] = useState<QueueRow | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [ackAll, setAckAll] = useState<{ kind: AlertKind; ids: number[] } | null>(null)
  const [active, setActive] = useState<string | null>(null)
  const rowRefs = useRef(new Map<string, HTMLLIElement>())
  const navigate = useNavigate()

  useNewAlertSound(alerts.data)
  useTitleCount(alerts.data ? open.length : null)

  // The row the keyboard is on: the chosen one, else the first. When it leaves the queue
  // (acknowledged, closed), the row now in its place takes over, and the focus with it.
  const activeKey = rows.some((r) => r.key === active) ? active : null
  const lastIndex = useRef(0)
  useEffect(() => {
    if (active === null || activeKey !== null || rows.length === 0) return
    const next = rows[Math.min(lastIndex.current, rows.length - 1)]!
    const hadFocus = document.activeElement === document.body || document.activeElement === null
    setActive(next.key)
    if (hadFocus) rowRefs.current.get(next.key)?.focus()
  }, [active, activeKey, rows])
  const focusable = activeKey ?? rows[0]?.key

  const choose = (row: QueueRow, index: number, focus: boolean) => {
    setActive(row.key)
    lastIndex.current = index
    onSelect?.(row)
    if (focus) rowRefs.current.get(row.key)?.focus()
  }
  const reassign = (row: QueueRow) => {
    setDone(null)
    setReassigning(row)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>, row: QueueRow, index: number) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return
    const onRow = e.target === e.currentTarget
    const to = (i: number) => {
      e.preventDefault()
      const next = rows[Math.max(0, Math.min(rows.length - 1, i))]
      if (next) choose(next, rows.indexOf(next), true)
    }
    if (e.key === 'ArrowDown') to(index + 1)
    else if (e.key === 'ArrowUp') to(index - 1)
    else if (e.key === 'Home' && onRow) to(0)
    else if (e.key === 'End' && onRow) to(rows.length - 1)
    else if (e.key === 'Enter' && onRow) {
      e.preventDefault()
      if (row.bookingId != null) navigate(`/bookings/${row.bookingId}`)
      else choose(row, index, false)
    } else if ((e.key === 'r' || e.key === 'R') && row.canReassign) {
      e.preventDefault()
      reassign(row)
    } else if (e.key === 'a' || e.key === 'A') {
      e.preventDefault()
      rowRefs.current.get(row.key)?.querySelector<HTMLButtonElement>('[data-ack]')?.click()
    }
  }

  return (
    // On a desktop no taller than the map beside it: the rows scroll inside (AdminLivePage, CONSOLE_HEIGHT).
    <section aria-labelledby="alerts-heading" className={`card flex min-h-0 flex-col gap-3 p-4 ${height}`}>
      <h2 id="alerts-heading" className="flex items-center gap-2 text-lg font-semibold">
        {open.length > 0 && <span aria-hidden="true" className="h-2.5 w-2.5 animate-pulse rounded-full bg-red-600" />}
        {alerts.data ? A().alerts.headingCount(open.length) : A().alerts.heading}
      </h2>
      {done && <Notice tone="success">{done}</Notice>}
      {alerts.isPending ? (
        <p role="status" className="text-slate-600">{A().alerts.loading}</p>
      ) : alerts.isError && !alerts.data ? (
        <div className="flex flex-wrap items-center gap-3">
          <p role="alert" className="text-red-700">{A().alerts.failed}</p>
          <button type="button" className="btn-secondary" onClick={() => alerts.refetch()}>
            {S.emergency.tryAgain}
          </button>
        </div>
      ) : open.length === 0 ? (
        <p className="text-slate-600">{A().alerts.none}</p>
      ) : (
        <>
          <AcknowledgeAll open={open} onChoose={(kind, ids) => { setDone(null); setAckAll({ kind, ids }) }} />
          <p className="text-xs text-slate-600">{A().console.keys}</p>
          {/* The queue scrolls in its column on a desktop, so the map beside it stays in view. */}
          <ul className="-mx-2 min-h-0 divide-y divide-slate-200 overflow-y-auto px-2">
            {rows.map((row, index) => (
              <QueueItem
                key={row.key}
                row={row}
                selected={row.key === selected}
                tabIndex={row.key === focusable ? 0 : -1}
                itemRef={(el) => {
                  if (el) rowRefs.current.set(row.key, el)
                  else rowRefs.current.delete(row.key)
                }}
                onChoose={() => choose(row, index, false)}
                onKeyDown={(e) => onKeyDown(e, row, index)}
                onReassign={() => reassign(row)}
              />
            ))}
          </ul>
        </>
      )}
      {/* In the body, not in the queue's panel: the phone's Map tab hides that panel, and a
          modal dialog hidden with it would leave the page inert behind nothing. */}
      {reassigning && reassigning.bookingId != null && createPortal(
        <ReassignDialog
          pickup={reassigning.pickup ?? null}
          bookingId={reassigning.bookingId}
          onClose={() => setReassigning(null)}
          onDone={(number) => {
            setDone(A().alerts.reassigned(reassigning.bookingId!, number))
            setReassigning(null)
          }}
        />,
        document.body,
      )}
      {ackAll &&
        createPortal(
          <AcknowledgeAllDialog kind={ackAll.kind} ids={ackAll.ids} onClose={() => setAckAll(null)} onDone={(text) => { setDone(text); setAckAll(null) }} />,
          document.body,
        )}
    </section>
  )
})

function QueueItem({
  row,
  selected,
  tabIndex,
  itemRef,
  onChoose,
  onKeyDown,
  onReassign,
}: {
  row: QueueRow
  selected: boolean
  tabIndex: number
  itemRef: (el: HTMLLIElement | null) => void
  onChoose: () => void
  onKeyDown: (e: KeyboardEvent<HTMLLIElement>) => void
  onReassign: () => void
}) {
  const ack = useAcknowledgeMany()
  const c = A().console
  return (
    // A row is one stop of the keyboard (arrows move between rows); its links and buttons follow it in Tab order.
    <li
      ref={itemRef}
      tabIndex={tabIndex}
      aria-current={selected || undefined}
      data-row={row.key}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        // A click on the row itself, not on one of its links or buttons.
        if (!(e.target as HTMLElement).closest('a, button')) onChoose()
      }}
      className={`flex flex-col gap-2 rounded-lg px-2 py-3 outline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-700 ${selected ? 'bg-violet-50 ring-2 ring-violet-600 ring-inset' : ''}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="font-medium text-red-800">{row.kinds.map((k) => S.alerts.kind[k]).join(' · ')}</p>
        <Elapsed since={row.since} />
      </div>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
        {row.bookingId != null && (
          <Link to={`/bookings/${row.bookingId}`} className="font-medium text-blue-700 hover:underline">
            {S.alerts.booking(row.bookingId)}
          </Link>
        )}
        {row.bookingType && <BookingTypeBadge type={row.bookingType} />}
        {/* A NO_AMBULANCE alert counts every emergency of its area that found nobody. */}
        {row.count != null && row.count > 1 && <span>{A().alerts.calls(row.count)}</span>}
        {row.ambulanceNumber && (
          <span className="inline-flex items-center gap-2">
            {A().alerts.ambulance(row.ambulanceNumber)} <PresenceBadge presence={row.presence} />
          </span>
        )}
      </p>
      <p className="flex flex-wrap items-center gap-x-2 text-sm text-slate-700">
        {row.pickup ? (
          <>
            <span className="tabular-nums">{formatCoord(row.pickup.latitude)}, {formatCoord(row.pickup.longitude)}</span>
            {row.pickup.landmark && <span>· {row.pickup.landmark}</span>}
          </>
        ) : (
          <span>{c.noPlace}</span>
        )}
        {row.destinationName ? (
          <span>· {c.hospital(row.destinationName)}</span>
        ) : (
          row.nearest?.name && <span>· {c.nearestHospital(row.nearest.name)}</span>
        )}
        {row.pickup && (
          <button type="button" className="inline-flex items-center gap-1 rounded font-medium text-blue-700 underline-offset-2 hover:underline" onClick={onChoose}>
            <Icon name="pin" className="h-4 w-4" /> {c.showOnMap}
          </button>
        )}
      </p>
      {row.moves != null && row.moves > 0 && <p className="text-sm text-slate-700">{A().alerts.moves(row.moves)}</p>}
      {row.station && !row.station.phone && <p className="text-sm text-slate-700">{A().alerts.noPhone}</p>}
      {ack.isError && <p role="alert" className="text-sm text-red-700">{messageOf(ack.error, A().alerts.ackFailed)}</p>}
      {ack.data && ack.data.failed > 0 && <p role="alert" className="text-sm text-red-700">{A().alerts.ackFailed}</p>}
      <div className="flex flex-wrap gap-2">
        {row.canReassign && (
          <button type="button" className="btn-primary py-1.5" onClick={onReassign}>
            {A().alerts.reassign}
          </button>
        )}
        {row.requesterPhone && (
          <a href={telHref(row.requesterPhone)} className="btn-secondary py-1.5">
            <Icon name="phone" className="h-4 w-4" /> {c.callRequester} <span className="font-normal">{row.requesterPhone}</span>
          </a>
        )}
        {/* A crew that is not online: a person phones its station now (decision 0020). */}
        {row.station?.phone && (
          <a href={telHref(row.station.phone)} className="btn-blue py-1.5">
            <Icon name="phone" className="h-4 w-4" /> {c.callStation}{' '}
            <span className="font-normal">{row.station.phone}</span>
          </a>
        )}
        {row.nearest?.phone && (
          <a href={telHref(row.nearest.phone)} className="btn-secondary py-1.5">
            <Icon name="phone" className="h-4 w-4" /> {c.callHospital} <span className="font-normal">{row.nearest.phone}</span>
          </a>
        )}
        <button type="button" data-ack className="btn-secondary py-1.5" disabled={ack.isPending} onClick={() => ack.mutate({ ids: row.alerts.map((a) => a.id) })}>
          {ack.isPending ? A().alerts.acknowledging : A().alerts.acknowledge}
        </button>
      </div>
    </li>
  )
}

/**
 * How long a row has waited, ticking each second. Its own clock: a hundred rows are not
 * re-drawn every second, only their times.
 */
function Elapsed({ since }: { since: string }) {
  const now = useNow(1000).getTime()
  return (
    <time dateTime={since} className="font-mono text-sm font-semibold tabular-nums text-slate-800">
      {A().console.waiting(elapsed(now - Date.parse(since)))}
    </time>
  )
}

/** One button per kind with more than one open alert: acknowledge them all, after a confirmation. */
function AcknowledgeAll({ open, onChoose }: { open: Alert[]; onChoose: (kind: AlertKind, ids: number[]) => void }) {
  const many = kindCounts(open).filter(([, n]) => n > 1)
  if (many.length === 0) return null
  const c = A().console
  return (
    <div role="group" aria-label={c.ackAllHeading} className="flex flex-wrap gap-2">
      {many.map(([kind, n]) => (
        <button
          key={kind}
          type="button"
          className="btn-secondary text-sm"
          onClick={() => onChoose(kind, open.filter((a) => a.kind === kind).map((a) => a.id))}
        >
          {c.acknowledgeAll(n, S.alerts.kind[kind])}
        </button>
      ))}
    </div>
  )
}

function AcknowledgeAllDialog({ kind, ids, onClose, onDone }: { kind: AlertKind; ids: number[]; onClose: () => void; onDone: (text: string) => void }) {
  const ack = useAcknowledgeMany()
  const [progress, setProgress] = useState(0)
  const c = A().console
  // Focus starts on Cancel: a stray Enter acknowledges nothing.
  const cancel = useRef<HTMLButtonElement>(null)
  const go = () =>
    ack.mutate(
      { ids, onProgress: setProgress },
      { onSuccess: ({ acknowledged, failed }) => (failed === 0 ? onDone(c.acknowledged(acknowledged)) : undefined) },
    )
  return (
    <Dialog title={c.ackAllTitle(ids.length)} onClose={onClose} initialFocus={cancel}>
      <div className="space-y-4">
        <p className="text-slate-700">{c.ackAllText(S.alerts.kind[kind])}</p>
        {ack.isPending && <p role="status" className="text-slate-700">{c.progress(progress, ids.length)}</p>}
        {ack.data && ack.data.failed > 0 && <Notice tone="error">{c.someFailed(ack.data.failed)}</Notice>}
        <div className="flex justify-end gap-2">
          <button ref={cancel} type="button" className="btn-secondary" onClick={onClose}>
            {c.cancel}
          </button>
          <button type="button" className="btn-primary" disabled={ack.isPending} onClick={go}>
            {c.ackAllConfirm(ids.length)}
          </button>
        </div>
      </div>
    </Dialog>
  )
}

/** The nearest free ambulances to the alert's pickup; one click sends one. */
function ReassignDialog({ pickup, bookingId, onClose, onDone }: { pickup: NonNullable<Alert['pickup']> | null; bookingId: number; onClose: () => void; onDone: (number: string) => void }) {
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
    <Dialog title={A().alerts.reassignTitle(bookingId)} onClose={onClose} initialFocus={close}>
      {/* Ranked as an emergency ranks them (decision 0020): the drive plus the crew's expected answer. */}
      <div className="space-y-4">
        {reassign.isError && <Notice tone="error">{messageOf(reassign.error, A().alerts.reassignFailed)}</Notice>}
        {!pickup ? (
          <p className="text-slate-700">{A().alerts.noPickup}</p>
        ) : free.isPending ? (
          <p role="status" className="text-slate-600">{A().alerts.freeLoading}</p>
        ) : free.isError ? (
          <Notice tone="error">{messageOf(free.error, A().alerts.freeFailed)}</Notice>
        ) : free.data.length === 0 ? (
          <p className="text-slate-700">{A().alerts.noneFree}</p>
        ) : (
          <>
            <p className="text-sm text-slate-600">{A().alerts.reassignHelp}</p>
            <ul className="space-y-2">
              {free.data.map((a) => (
                <li key={a.id}>
                  {/* Its name is what it shows, starting with "Send" (WCAG 2.5.3, label in name). */}
                  <button
                    type="button"
                    disabled={reassign.isPending}
                    onClick={() => choose(a)}
                    className="block w-full rounded-lg border border-slate-200 px-4 py-3 text-left hover:border-blue-400 hover:bg-blue-50 disabled:opacity-60"
                  >
                    <span className="block font-medium text-slate-900">
                      {reassign.isPending && chosen === a.id ? A().alerts.reassigning : A().console.send(a.number, formatDistance(a.distanceKm), formatEta(a.etaMinutes))}
                    </span>
                    <span className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
                      {ambulanceTypeLabel[a.type] ?? a.type} <PresenceBadge presence={a.crewPresence} />
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
        <div className="flex justify-end">
          <button ref={close} type="button" className="btn-secondary" onClick={onClose}>
            {A().alerts.close}
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
    if (count !== null) document.title = A().alerts.pageTitle(count)
  }, [count])
}
