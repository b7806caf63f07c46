import { type KeyboardEvent, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { Link } from 'react-router'
import { type Column, DataTable } from '@/components/DataTable'
import { EmptyState, ErrorState } from '@/components/Feedback'
import { useNow } from '@/components/LiveClock'
import { StatusBadge } from '@/components/StatusBadge'
import { BookingTypeBadge } from '@/features/booking'
import { tripLabel } from '@/lib/trip/status'
import { freshness } from '@/lib/position'
import { PushStep } from '@/components/PushStep'
import { usePush } from '@/lib/push/usePush'
import { S } from '@/strings'
import { extentOf, loadView, saveView, type SavedView, toBbox, useFleet, useLive, type View } from '../api/live'
import type { CrewPresence, Live, LiveAmbulance, LiveBooking } from '@/lib/types'
import { PresenceBadge } from '@/components/PresenceBadge'
import { AdminPageHeader } from '../components/AdminPageHeader'
import { AlertsPanel } from '../components/AlertsPanel'
import type { Focus, Start } from '../components/LiveMap'
import type { Point } from '@/components/map/BaseMap'
import { isOpen, useAlerts } from '../api/alerts'
import type { QueueRow } from '../api/queue'
import { A } from '../strings'

const LiveMap = lazy(() => import('../components/LiveMap'))
/** Where an empty fleet leaves the map: the inhabited world. */
const WORLD: View = { south: -55, west: -170, north: 70, east: 170 }

/**
 * /admin/live: the dispatcher's view of the map's area, with the same things as lists beside it. It opens on the
 * dispatcher's last view on this browser, else on where the fleet is (the whole world's answer, fitted).
 */
export default function AdminLivePage() {
  const [saved] = useState(loadView)
  const fleet = useFleet(saved === null)
  const [bbox, setBbox] = useState<string | null>(null)
  const live = useLive(bbox)
  const now = useNow(5000).getTime()
  const push = usePush('admin')
  const onView = useCallback((view: View, at: SavedView) => {
    setBbox(toBbox(view))
    saveView(at)
  }, [])
  const start = useMemo<Start | null>(() => {
    if (saved) return { saved }
    if (!fleet.data) return null
    return { fit: extentOf(fleet.data) ?? WORLD }
  }, [saved, fleet.data])
  const noFleet = fleet.data && extentOf(fleet.data) === null
  // The dispatcher may show only the ambulances of one crew presence (decision 0020): map and list alike.
  const [presence, setPresence] = useState<CrewPresence | 'ALL'>('ALL')
  const data = useMemo(
    () => (live.data && presence !== 'ALL' ? { ...live.data, ambulances: live.data.ambulances.filter((a) => a.crewPresence === presence) } : live.data),
    [live.data, presence],
  )
  const empty = data && data.ambulances.length === 0 && data.openBookings.length === 0

  const ambulanceColumns: Column<LiveAmbulance>[] = [
    { name: S.live.ambulanceCol, cell: (a) => <span className="font-medium">{a.number}</span> },
    { name: S.live.presenceCol, cell: (a) => <PresenceBadge presence={a.crewPresence} /> },
    {
      name: S.live.statusCol,
      cell: (a) => (
        <>
          <StatusBadge status={a.status} />
          {a.notResponding && (
            <span className="mt-1 block font-medium text-red-800">
              {S.live.notResponding(Math.floor((now - Date.parse(a.notResponding)) / 60_000))}
            </span>
          )}
        </>
      ),
    },
    {
      name: S.live.positionCol,
      cell: (a) => (
        <>
          {a.position ? freshness(a.position, now).text : S.live.noPosition}
          {a.positionDoubt && (
            <span className="mt-1 block font-medium text-amber-900">
              {a.positionDoubt.reason === 'FAR_FROM_HOSPITAL'
                ? S.live.doubtFar(a.positionDoubt.reports)
                : a.positionDoubt.reason === 'IMPRECISE'
                  ? S.live.doubtImprecise(a.positionDoubt.reports)
                  : S.live.positionDoubt(a.positionDoubt.speedKmh, Math.floor((now - Date.parse(a.positionDoubt.since)) / 60_000))}
            </span>
          )}
        </>
      ),
    },
  ]
  const bookingColumns: Column<LiveBooking>[] = [
    {
      name: S.live.bookingCol,
      cell: (b) => (
        <span className="inline-flex items-center gap-2">
          <Link to={`/bookings/${b.id}`} className="font-medium text-blue-700 hover:underline">#{b.id}</Link>
          <BookingTypeBadge type={b.bookingType} />
        </span>
      ),
    },
    { name: S.live.stageCol, cell: (b) => tripLabel(b) },
    { name: S.live.ambulanceCol, cell: (b) => data?.ambulances.find((a) => a.id === b.ambulanceId)?.number ?? `#${b.ambulanceId}` },
  ]

  // The phone's tabs (Map / Queue); on a desktop both are shown side by side and the tabs are hidden.
  const [tab, setTab] = useState<Tab>('map')
  const [focus, setFocus] = useState<Focus | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  const alerts = useAlerts()
  const openCount = (alerts.data ?? []).filter(isOpen).length
  // What the map knows of the fleet, read when a row is chosen: kept in a ref so that the
  // queue's handler stays the same across polls (the queue is not re-drawn for them).
  const known = useRef<{ live?: Live; fleet?: Live }>({})
  useEffect(() => {
    known.current = { live: live.data, fleet: fleet.data }
  }, [live.data, fleet.data])
  const onSelect = useCallback(
    (row: QueueRow) => {
      setSelected(row.key)
      const ambulance = [...(known.current.live?.ambulances ?? []), ...(known.current.fleet?.ambulances ?? [])].find((a) => a.id === row.ambulanceId)
      const point: Point | null = row.pickup
        ? [row.pickup.latitude, row.pickup.longitude]
        : ambulance?.position
          ? [ambulance.position.latitude, ambulance.position.longitude]
          : null
      if (point) {
        setFocus((f) => ({ point, seq: (f?.seq ?? 0) + 1 }))
        setTab('map')
      }
    },
    [],
  )
  const mapBox = `h-[60vh] min-h-[20rem] w-full ${CONSOLE_HEIGHT}`

  return (
    <div className="space-y-4">
      <AdminPageHeader title={S.live.title} subtitle={S.live.subtitle} action={null} />
      <ConsoleTabs tab={tab} onTab={setTab} count={alerts.data ? openCount : null} />
      {/* Map and queue side by side on a desktop, the map first so it is always in the first screenful. */}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_30rem] lg:items-start">
        <div id="console-map" role="tabpanel" aria-labelledby="console-map-tab" className={`space-y-3 lg:block ${tab === 'map' ? '' : 'hidden'}`}>
          {start === null ? (
            fleet.isError ? (
              <ErrorState message={S.live.fleetFailed} error={fleet.error} onRetry={() => fleet.refetch()} />
            ) : (
              <div role="status" className={`animate-pulse rounded-xl bg-slate-100 ${mapBox}`}>{S.live.findingFleet}</div>
            )
          ) : (
            <Suspense fallback={<div role="status" className={`animate-pulse rounded-xl bg-slate-100 ${mapBox}`}>{S.mapLoading}</div>}>
              <LiveMap live={data} start={start} now={now} onView={onView} focus={focus} className={mapBox} />
            </Suspense>
          )}
          <label className="flex w-fit items-center gap-2 text-sm font-medium">
            {S.live.presenceFilter}
            <select className="input w-auto" value={presence} onChange={(e) => setPresence(e.target.value as CrewPresence | 'ALL')}>
              <option value="ALL">{S.live.presenceAll}</option>
              {(['ONLINE', 'OFFLINE', 'NO_CREW'] as const).map((p) => (
                <option key={p} value={p}>{S.presence[p]}</option>
              ))}
            </select>
          </label>
          {start !== null && live.isPending && <p role="status" className="text-sm text-slate-600">{S.live.loading}</p>}
          {live.isError && !data && <ErrorState message={S.live.failed} error={live.error} onRetry={() => live.refetch()} />}
          {empty && (noFleet ? <EmptyState title={S.live.noFleetTitle} text={S.live.noFleet} /> : <EmptyState title={S.live.emptyTitle} text={S.live.empty} />)}
          {data?.truncated && (
            <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">{S.live.truncated}</p>
          )}
        </div>
        <div id="console-queue" role="tabpanel" aria-labelledby="console-queue-tab" className={`lg:sticky lg:top-4 lg:block ${tab === 'queue' ? '' : 'hidden'}`}>
          <AlertsPanel selected={selected} onSelect={onSelect} height="lg:max-h-[calc(100vh-14rem)]" />
        </div>
      </div>
      <PushStep push={push} id="admin-push-heading" title={S.push.admin.heading} text={S.push.admin.askText} askLabel={S.push.admin.ask} onText={S.push.admin.on} />
      {data && !empty && (
        <div className="grid gap-6 lg:grid-cols-2">
          <InView id="live-ambulances" title={S.live.ambulancesHeading(data.ambulances.length)} none={S.live.noAmbulances} columns={ambulanceColumns} rows={data.ambulances} />
          <InView id="live-bookings" title={S.live.bookingsHeading(data.openBookings.length)} none={S.live.noBookings} columns={bookingColumns} rows={data.openBookings} />
        </div>
      )}
    </div>
  )
}

type Tab = 'map' | 'queue'

/**
 * The map's height on a desktop: what is left of the window under the top bar and the
 * page's title (about 15rem), so that the whole map is in the first screenful however
 * many alerts the queue beside it holds (at 1280 x 800: from 217 to 777 px).
 */
const CONSOLE_HEIGHT = 'lg:h-[calc(100vh-15rem)] lg:max-h-[44rem]'

/** The phone's two tabs (hidden on a desktop, where both panels show): Map, and the queue with its count of open alerts. */
function ConsoleTabs({ tab, onTab, count }: { tab: Tab; onTab: (tab: Tab) => void; count: number | null }) {
  const c = A().console
  const tabs: [Tab, string][] = [
    ['map', c.mapTab],
    ['queue', count === null ? c.queue : c.queueTab(count)],
  ]
  const move = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return
    e.preventDefault()
    const other: Tab = tab === 'map' ? 'queue' : 'map'
    onTab(other)
    document.getElementById(`console-${other}-tab`)?.focus()
  }
  return (
    <div role="tablist" aria-label={c.tabs} className="grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1 lg:hidden">
      {tabs.map(([id, label]) => (
        <button
          key={id}
          id={`console-${id}-tab`}
          type="button"
          role="tab"
          aria-selected={tab === id}
          aria-controls={`console-${id}`}
          tabIndex={tab === id ? 0 : -1}
          onClick={() => onTab(id)}
          onKeyDown={move}
          className={`rounded-lg px-3 py-2 text-sm font-semibold ${tab === id ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-700'}`}
        >
          {label}
        </button>
      ))}
    </div>
  )
}

/** What the map shows, as a list (the map's markers are not all reachable by keyboard). */
function InView<T extends { id: number }>({ id, title, none, columns, rows }: { id: string; title: string; none: string; columns: Column<T>[]; rows: T[] }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-slate-600">{none}</p>
      ) : (
        // Up to 500 rows: scrolled in place, so the map stays in reach (focusable, so the keyboard scrolls it too).
        <div role="group" aria-labelledby={id} tabIndex={0} className="max-h-[32rem] overflow-y-auto rounded-xl">
          <DataTable caption={title} columns={columns} rows={rows} rowKey={(r) => r.id} />
        </div>
      )}
    </section>
  )
}
