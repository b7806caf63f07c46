import { Link } from 'react-router'
import { CallEmergency } from '@/components/CallEmergency'
import { Alert } from '@/components/Feedback'
import { LiveClock } from '@/components/LiveClock'
import { Section } from '@/components/Section'
import { isAdmin, useSession } from '@/lib/session'
import { SendAmbulanceLink } from '@/features/emergency'
import { S } from '@/strings'
import { homeErrorMessage, useHomeStats, zeroStats } from '../api/home'
import { Icon, type IconName } from '@/components/Icon'
import { ambulanceTypeLabel } from '@/lib/format'

export function HomePage() {
  const session = useSession()
  const signedIn = Boolean(session)
  const admin = isAdmin(session?.user)
  const stats = useHomeStats(signedIn)
  const figures = stats.data ?? zeroStats
  const loading = stats.isPending

  const tiles: { label: string; value: string; icon: IconName }[] = [
    { label: 'Active Ambulances', value: loading ? '…' : String(figures.ambulances.available), icon: 'ambulance' },
    { label: 'Response Time', value: '8 min', icon: 'clock' },
    { label: 'Hospitals', value: loading ? '…' : String(figures.hospitals), icon: 'hospital' },
    { label: 'Satisfaction', value: '98%', icon: 'star' },
  ]

  const services: { to: string; title: string; text: string; icon: IconName }[] = [
    { to: '/booking', title: 'Book an Ambulance', text: 'Normal or emergency transport in a few taps.', icon: 'ambulance' },
    { to: '/hospitals/nearest', title: 'Nearest Hospitals', text: 'Hospitals closest to you, with distance and contact.', icon: 'hospital' },
    { to: '/history', title: 'Booking History', text: 'Follow the live status of your bookings.', icon: 'list' },
  ]

  return (
    <div className="space-y-10">
      <section className="grid gap-8 overflow-hidden rounded-2xl bg-gradient-to-br from-brand-800 to-brand-700 px-6 py-12 text-white shadow-lg sm:px-10 lg:grid-cols-[1fr_18rem] lg:items-center">
        <div>
          <p className="mb-2 text-sm font-semibold uppercase tracking-widest text-brand-100">24/7 emergency response</p>
          <h1 className="mb-4 max-w-2xl text-3xl font-extrabold leading-tight sm:text-4xl">
            Fast ambulance booking and the nearest hospital, when every minute counts.
          </h1>
          <p className="mb-8 max-w-xl text-brand-50">
            Find hospitals near you, see which ambulances are free right now and book one for a patient in under a minute.
          </p>
          <div className="flex flex-wrap gap-3">
            {signedIn && !admin && <SendAmbulanceLink className="w-full sm:w-auto" />}
            <CallEmergency className="btn bg-white px-6 py-3 text-base text-brand-700 hover:bg-brand-50">{S.callEmergency}</CallEmergency>
            {signedIn ? (
              <Link to="/booking" className="btn border border-white/70 px-6 py-3 text-base text-white hover:bg-white/10">
                Book Ambulance
              </Link>
            ) : (
              <Link to="/register" className="btn border border-white/70 px-6 py-3 text-base text-white hover:bg-white/10">
                Get Started
              </Link>
            )}
          </div>
        </div>
        {stats.data && (
          <aside aria-label="Right now" className="hidden rounded-xl bg-white/10 p-6 ring-1 ring-white/25 lg:block">
            <p className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-brand-100">
              <span aria-hidden="true" className="h-2.5 w-2.5 animate-pulse rounded-full bg-green-300" /> Right now
            </p>
            <p className="mt-3 text-5xl font-extrabold tabular-nums">{stats.data.ambulances.available}</p>
            <p className="text-brand-50">ambulances ready to dispatch</p>
            <p className="mt-4 border-t border-white/20 pt-4 text-sm text-brand-50">
              across <span className="font-semibold text-white">{stats.data.hospitals}</span> partner hospitals
            </p>
          </aside>
        )}
      </section>

      {!signedIn && (
        <Alert tone="info">
          {S.home.unauthorized}{' '}
          <Link to="/login" className="font-semibold underline">Log in</Link>
        </Alert>
      )}

      <section aria-label="Statistics" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {tiles.map((t) => (
          <div key={t.label} className="card p-5">
            <span className="inline-flex rounded-lg bg-brand-50 p-2 text-brand-700"><Icon name={t.icon} className="h-6 w-6" /></span>
            <p className="mt-2 text-2xl font-bold text-slate-900">{t.value}</p>
            <p className="text-sm text-slate-600">{t.label}</p>
          </div>
        ))}
      </section>

      <Section id="services-title" title="Our services">
        <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
          {services.map((s) => (
            <Link key={s.to} to={s.to} className="card block p-5 transition hover:border-brand-500 hover:shadow-md">
              <span className="inline-flex rounded-lg bg-brand-50 p-2 text-brand-700"><Icon name={s.icon} className="h-6 w-6" /></span>
              <h3 className="mt-2 font-semibold">{s.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{s.text}</p>
            </Link>
          ))}
          <div className="card p-5">
            <span className="inline-flex rounded-lg bg-brand-50 p-2 text-brand-700"><Icon name="headset" className="h-6 w-6" /></span>
            <h3 className="mt-2 font-semibold">24/7 Helpline</h3>
            <p className="mt-1 text-sm text-slate-600">Trained staff answer around the clock.</p>
          </div>
        </div>
      </Section>

      <section aria-labelledby="live-title" className="card p-6">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 id="live-title" className="text-xl font-bold">Live status</h2>
          <LiveClock className="rounded-md bg-slate-100 px-3 py-1 text-slate-700" />
        </div>
        {stats.isError && (
          <div className="mb-4">
            <Alert tone={signedIn ? 'warning' : 'error'}>{homeErrorMessage(stats.error, signedIn)}</Alert>
          </div>
        )}
        {loading ? (
          <p className="mb-4 text-lg text-slate-500" role="status">Loading live figures...</p>
        ) : (
          <p className="mb-4 text-lg" aria-live="polite">
            <span className="font-bold text-green-700">{figures.ambulances.available}</span> of{' '}
            <span className="font-bold">{figures.ambulances.total}</span> ambulances are currently available
          </p>
        )}
        <div className="mb-4 grid grid-cols-3 gap-3 text-center text-sm">
          <div className="rounded-lg bg-green-50 p-3"><p className="text-lg font-bold text-green-700">{loading ? '…' : figures.ambulances.available}</p>Available</div>
          <div className="rounded-lg bg-blue-50 p-3"><p className="text-lg font-bold text-blue-700">{loading ? '…' : figures.ambulances.onDuty}</p>On Duty</div>
          <div className="rounded-lg bg-amber-50 p-3"><p className="text-lg font-bold text-amber-700">{loading ? '…' : figures.ambulances.maintenance}</p>Maintenance</div>
        </div>
        {figures.available.length > 0 && (
          <div className="mb-4">
            <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500">Ready to dispatch</h3>
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
              {figures.available.slice(0, 4).map((a) => (
                <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                  <span>
                    <span className="font-semibold">{a.number}</span>
                    <span className="text-slate-500"> · {ambulanceTypeLabel[a.type] ?? a.type}</span>
                  </span>
                  <span className="text-slate-600">{a.hospital?.name ?? S.unknownHospital}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="flex gap-3">
          {stats.isError && (
            <button type="button" className="btn-primary" onClick={() => stats.refetch()}>Retry</button>
          )}
          <button type="button" className="btn-secondary" onClick={() => stats.refetch()} disabled={stats.isFetching}>
            {stats.isFetching && !loading ? 'Refreshing...' : 'Refresh'}
          </button>
        </div>
      </section>
    </div>
  )
}
