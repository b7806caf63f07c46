import { lazy, Suspense, useCallback, useMemo, useState } from 'react'
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
import type { CrewPresence, LiveAmbulance, LiveBooking } from '@/lib/types'
import { PresenceBadge } from '@/components/PresenceBadge'
import { AdminPageHeader } from '../components/AdminPageHeader'
import { AlertsPanel } from '../components/AlertsPanel'
import type { Start } from '../components/LiveMap'

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

  return (
    <div className="space-y-6">
      <AdminPageHeader title={S.live.title} subtitle={S.live.subtitle} action={null} />
      <PushStep push={push} id="admin-push-heading" title={S.push.admin.heading} text={S.push.admin.askText} askLabel={S.push.admin.ask} onText={S.push.admin.on} />
      <AlertsPanel />
      <label className="flex w-fit items-center gap-2 text-sm font-medium">
        {S.live.presenceFilter}
        <select className="input w-auto" value={presence} onChange={(e) => setPresence(e.target.value as CrewPresence | 'ALL')}>
          <option value="ALL">{S.live.presenceAll}</option>
          {(['ONLINE', 'OFFLINE', 'NO_CREW'] as const).map((p) => (
            <option key={p} value={p}>{S.presence[p]}</option>
          ))}
        </select>
      </label>
      {start === null ? (
        fleet.isError ? (
          <ErrorState message={S.live.fleetFailed} error={fleet.error} onRetry={() => fleet.refetch()} />
        ) : (
          <div role="status" className="h-[28rem] animate-pulse rounded-xl bg-slate-100 md:h-[36rem]">{S.live.findingFleet}</div>
        )
      ) : (
        <Suspense fallback={<div role="status" className="h-[28rem] animate-pulse rounded-xl bg-slate-100 md:h-[36rem]">{S.mapLoading}</div>}>
          <LiveMap live={data} start={start} now={now} onView={onView} />
        </Suspense>
      )}
      {start !== null && live.isPending && <p role="status" className="text-sm text-slate-600">{S.live.loading}</p>}
      {live.isError && !data && <ErrorState message={S.live.failed} error={live.error} onRetry={() => live.refetch()} />}
      {empty && (noFleet ? <EmptyState title={S.live.noFleetTitle} text={S.live.noFleet} /> : <EmptyState title={S.live.emptyTitle} text={S.live.empty} />)}
      {data?.truncated && (
        <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">{S.live.truncated}</p>
      )}
      {data && !empty && (
        <div className="grid gap-6 lg:grid-cols-2">
          <InView id="live-ambulances" title={S.live.ambulancesHeading(data.ambulances.length)} none={S.live.noAmbulances} columns={ambulanceColumns} rows={data.ambulances} />
          <InView id="live-bookings" title={S.live.bookingsHeading(data.openBookings.length)} none={S.live.noBookings} columns={bookingColumns} rows={data.openBookings} />
        </div>
      )}
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
