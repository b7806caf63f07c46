import { Link } from 'react-router'
import { Icon, type IconName } from '@/components/Icon'
import { LiveClock, useNow } from '@/components/LiveClock'
import { PageHeader } from '@/components/PageHeader'
import { QueryResult } from '@/components/QueryResult'
import { Section } from '@/components/Section'
import { StatusBadge } from '@/components/StatusBadge'
import { ambulanceStatusLabel, formatDateTime } from '@/lib/format'
import type { AmbulanceStatus, BookingStatus, Stats } from '@/lib/types'
import { useSession } from '@/lib/session'
import { S } from '@/strings'
import { BookingTypeBadge } from '@/features/booking'
import { patientLine } from '@/lib/trip/patient'
import { bookingAmbulance, bookingHospital, bookingStatusLabel } from '@/lib/trip/status'
import { useAdminBookings, useAdminStats } from '../api/bookings'

const RECENT = 3
/** A card on the dashboard's side. */
const panel = { className: 'card p-5', headingClassName: 'mb-3 text-lg font-semibold' }

export default function AdminDashboardPage() {
  const user = useSession()?.user
  const stats = useAdminStats()
  const recent = useAdminBookings(0)
  const now = useNow(60_000)
  const recentBookings = recent.data?.content ?? []

  return (
    <div className="space-y-6">
      <PageHeader
        title={S.adminDashboard.title}
        subtitle={S.adminDashboard.welcome(
          user?.username ?? '',
          now.toLocaleDateString(S.locale, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }),
        )}
        action={
          <div className="flex items-center gap-2 rounded-lg bg-slate-100 px-3 py-2 text-slate-800">
            <Icon name="clock" className="h-4 w-4" />
            <LiveClock />
          </div>
        }
      />

      <QueryResult query={stats} loadingLabel={S.adminDashboard.loading} errorMessage={S.dashboardFailed}>
        {stats.data && <StatCards stats={stats.data} />}
      </QueryResult>

      <Section id="quick-actions" title={S.adminDashboard.quickActions} className="space-y-3" headingClassName="text-lg font-semibold">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <QuickAction to="/admin/hospitals" icon="hospital" title={S.adminHospitals.title} text={S.adminDashboard.hospitalsText} />
          <QuickAction to="/admin/ambulances" icon="ambulance" title={S.adminAmbulances.title} text={S.adminDashboard.ambulancesText} />
          <QuickAction to="/admin/bookings" icon="list" title={S.adminDashboard.allBookings} text={S.adminDashboard.allBookingsText} />
          <QuickAction to="/admin/live" icon="pin" title={S.live.title} text={S.adminDashboard.liveText} />
          <QuickAction to="/admin/crew" icon="headset" title={S.crewAdmin.title} text={S.adminDashboard.crewText} />
          <QuickAction to="/admin/reports" icon="clock" title={S.adminDashboard.reports} text={S.adminDashboard.reportsText} />
          <QuickAction to="/admin/settings" icon="star" title={S.adminDashboard.settings} text={S.adminDashboard.settingsText} />
          <QuickAction to="/admin/audit" icon="list" title={S.adminDashboard.audit} text={S.adminDashboard.auditText} />
        </div>
      </Section>

      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <section aria-labelledby="recent-bookings" className="card p-5">
          <div className="mb-4 flex items-center justify-between gap-3">
            <h2 id="recent-bookings" className="text-lg font-semibold">{S.adminDashboard.recent}</h2>
            <Link to="/admin/bookings" className="text-sm font-semibold text-blue-700 hover:underline">{S.adminDashboard.viewAll}</Link>
          </div>
          <QueryResult
            query={recent}
            loadingLabel={S.adminBookings.loading}
            errorMessage={S.dashboardFailed}
            isEmpty={recentBookings.length === 0}
            empty={<p className="py-6 text-center text-slate-600">{S.adminBookings.none}</p>}
          >
            <ul className="divide-y divide-slate-100">
              {recentBookings.slice(0, RECENT).map((b) => (
                <li key={b.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">
                      #{b.id} · {patientLine(b.patient).name} <BookingTypeBadge type={b.bookingType} />
                    </p>
                    <p className="text-sm text-slate-600">
                      {bookingHospital(b)} · {bookingAmbulance(b)}
                    </p>
                    <p className="text-xs text-slate-500">{formatDateTime(b.bookingTime)} · {b.userEmail || b.username}</p>
                  </div>
                  <StatusBadge status={b.bookingStatus} />
                </li>
              ))}
            </ul>
          </QueryResult>
        </section>

        <div className="space-y-6">
          {stats.data && <FleetPanel stats={stats.data} />}
          <Section id="system-status" title={S.adminDashboard.systemStatus} {...panel}>
            <ul className="space-y-2 text-sm">
              {[S.adminDashboard.apiServer, S.adminDashboard.database, S.adminDashboard.bookingService, S.adminDashboard.locationServices].map((name) => (
                <li key={name} className="flex items-center justify-between">
                  <span>{name}</span>
                  <span className="inline-flex items-center gap-1.5 font-medium text-green-700">
                    <span className="h-2 w-2 rounded-full bg-green-500" aria-hidden="true" /> {S.adminDashboard.online}
                  </span>
                </li>
              ))}
            </ul>
            <p className="mt-3 text-xs text-slate-500">{S.adminDashboard.staticNote}</p>
          </Section>
        </div>
      </div>
    </div>
  )
}

function StatCards({ stats }: { stats: Stats }) {
  const open = stats.bookings.pending + stats.bookings.active
  const cards: { label: string; value: number; note: string; icon: IconName; style: string }[] = [
    { label: S.adminDashboard.users, value: stats.users, note: S.adminDashboard.usersNote, icon: 'star', style: 'bg-blue-100 text-blue-700' },
    { label: S.homePage.hospitals, value: stats.hospitals, note: S.adminDashboard.hospitalsNote, icon: 'hospital', style: 'bg-green-100 text-green-700' },
    { label: S.adminDashboard.ambulances, value: stats.ambulances.total, note: S.adminDashboard.availableNow(stats.ambulances.available), icon: 'ambulance', style: 'bg-brand-100 text-brand-700' },
    { label: S.adminDashboard.totalBookings, value: stats.bookings.total, note: S.adminDashboard.todayOpen(stats.todayBookings, open), icon: 'list', style: 'bg-amber-100 text-amber-800' },
  ]
  return (
    <section aria-label={S.homePage.statistics} className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {cards.map((c) => (
        <div key={c.label} className="card flex items-start justify-between gap-3 p-5">
          <div>
            <p className="text-sm text-slate-600">{c.label}</p>
            <p className="text-3xl font-bold text-slate-900">{c.value.toLocaleString(S.locale)}</p>
            <p className="text-xs text-slate-500">{c.note}</p>
          </div>
          <span className={`rounded-lg p-2 ${c.style}`}><Icon name={c.icon} /></span>
        </div>
      ))}
    </section>
  )
}

/** A bar's colour for each status: the hue of its badge (StatusBadge), stronger. */
const barColor: Record<AmbulanceStatus | BookingStatus, string> = {
  AVAILABLE: 'bg-green-500',
  ON_DUTY: 'bg-blue-500',
  MAINTENANCE: 'bg-amber-500',
  PENDING: 'bg-yellow-400',
  ACTIVE: 'bg-blue-500',
  COMPLETED: 'bg-green-500',
  CANCELLED: 'bg-red-400',
}
/** Read at render time: the records' getters give the chosen language's words. */
const statusLabel = (status: AmbulanceStatus | BookingStatus) =>
  status in ambulanceStatusLabel ? ambulanceStatusLabel[status] : bookingStatusLabel[status as BookingStatus]
type Counts = Partial<Record<AmbulanceStatus | BookingStatus, number>>

/** How many are in each status, as bars of the total, in the order of `counts`. */
function StatusPanel({ id, title, counts, total }: { id: string; title: string; counts: Counts; total: number }) {
  const rows = Object.entries(counts) as [AmbulanceStatus | BookingStatus, number][]
  return (
    <Section id={id} title={title} {...panel}>
      <ul className="space-y-3 text-sm">
        {rows.map(([status, value]) => (
          <li key={status}>
            <div className="mb-1 flex justify-between">
              <span>{statusLabel(status)}</span>
              <span className="font-semibold tabular-nums">{value}</span>
            </div>
            <div className="h-2 rounded-full bg-slate-100" aria-hidden="true">
              <div className={`h-2 rounded-full ${barColor[status]}`} style={{ width: `${total > 0 ? Math.round((value / total) * 100) : 0}%` }} />
            </div>
          </li>
        ))}
      </ul>
    </Section>
  )
}

/** The fleet and the bookings by status, as bars of their totals. */
function FleetPanel({ stats }: { stats: Stats }) {
  const a = stats.ambulances
  const b = stats.bookings
  const fleet: Counts = { AVAILABLE: a.available, ON_DUTY: a.onDuty, MAINTENANCE: a.maintenance }
  const bookings: Counts = { PENDING: b.pending, ACTIVE: b.active, COMPLETED: b.completed, CANCELLED: b.cancelled }
  return (
    <>
      <StatusPanel id="fleet-status" title={S.adminDashboard.fleetStatus} total={a.total} counts={fleet} />
      <StatusPanel id="booking-status" title={S.adminDashboard.bookingsByStatus} total={b.total} counts={bookings} />
    </>
  )
}

function QuickAction({ to, icon, title, text }: { to: string; icon: IconName; title: string; text: string }) {
  return (
    <Link to={to} className="card flex items-start gap-3 p-5 transition hover:border-brand-500 hover:shadow">
      <span className="text-brand-600"><Icon name={icon} /></span>
      <span>
        <span className="block font-semibold">{title}</span>
        <span className="block text-sm text-slate-600">{text}</span>
      </span>
    </Link>
  )
}

