import { Link } from 'react-router'
import { CallEmergency } from '@/components/CallEmergency'
import { Alert } from '@/components/Feedback'
import { LiveClock } from '@/components/LiveClock'
import { Section } from '@/components/Section'
import { useEmergencyNumber } from '@/lib/useEmergencyNumber'
import { isAdmin, useSession } from '@/lib/session'
import { SendAmbulanceLink } from '@/features/emergency'
import { S } from '@/strings'
import { homeErrorMessage, useHomeStats, zeroStats } from '../api/home'
import { Icon, type IconName } from '@/components/Icon'
import { ambulanceTypeLabel } from '@/lib/format'

export function HomePage() {
  useEmergencyNumber()
  const session = useSession()
  const signedIn = Boolean(session)
  const admin = isAdmin(session?.user)
  const stats = useHomeStats(signedIn)
  const figures = stats.data ?? zeroStats
  const loading = stats.isPending

  const tiles: { label: string; value: string; icon: IconName }[] = [
    { label: S.homePage.activeAmbulances, value: loading ? '…' : String(figures.ambulances.available), icon: 'ambulance' },
    { label: S.homePage.responseTime, value: S.homePage.responseTimeValue, icon: 'clock' },
    { label: S.homePage.hospitals, value: loading ? '…' : String(figures.hospitals), icon: 'hospital' },
    { label: S.homePage.satisfaction, value: '98%', icon: 'star' },
  ]

  const services: { to: string; title: string; text: string; icon: IconName }[] = [
    { to: '/booking', title: S.homePage.bookTitle, text: S.homePage.bookText, icon: 'ambulance' },
    { to: '/hospitals/nearest', title: S.homePage.nearestTitle, text: S.homePage.nearestText, icon: 'hospital' },
    { to: '/history', title: S.homePage.historyTitle, text: S.homePage.historyText, icon: 'list' },
  ]

  return (
    <div className="space-y-10">
      <section className="grid gap-8 overflow-hidden rounded-2xl bg-gradient-to-br from-brand-800 to-brand-700 px-6 py-12 text-white shadow-lg sm:px-10 lg:grid-cols-[1fr_18rem] lg:items-center">
        <div>
          <p className="mb-2 text-sm font-semibold uppercase tracking-widest text-brand-100">{S.homePage.tagline}</p>
          <h1 className="mb-4 max-w-2xl text-3xl font-extrabold leading-tight sm:text-4xl">
            {S.homePage.heading}
          </h1>
          <p className="mb-8 max-w-xl text-brand-50">
            {S.homePage.intro}
          </p>
          <div className="flex flex-wrap gap-3">
            {signedIn && !admin && <SendAmbulanceLink className="w-full sm:w-auto" />}
            <CallEmergency className="btn bg-white px-6 py-3 text-base text-brand-700 hover:bg-brand-50">{S.callEmergency}</CallEmergency>
            {signedIn ? (
              <Link to="/booking" className="btn border border-white/70 px-6 py-3 text-base text-white hover:bg-white/10">
                {S.nav.book}
              </Link>
            ) : (
              <Link to="/register" className="btn border border-white/70 px-6 py-3 text-base text-white hover:bg-white/10">
                {S.homePage.getStarted}
              </Link>
            )}
          </div>
        </div>
        {stats.data && (
          <aside aria-label={S.homePage.rightNow} className="hidden rounded-xl bg-white/10 p-6 ring-1 ring-white/25 lg:block">
            <p className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-brand-100">
              <span aria-hidden="true" className="h-2.5 w-2.5 animate-pulse rounded-full bg-green-300" /> {S.homePage.rightNow}
            </p>
            <p className="mt-3 text-5xl font-extrabold tabular-nums">{stats.data.ambulances.available}</p>
            <p className="text-brand-50">{S.homePage.readyCount}</p>
            <p className="mt-4 border-t border-white/20 pt-4 text-sm text-brand-50">
              {S.homePage.acrossHospitals(stats.data.hospitals)}
            </p>
          </aside>
        )}
      </section>

      {!signedIn && (
        <Alert tone="info">
          {S.home.unauthorized}{' '}
          <Link to="/login" className="font-semibold underline">{S.homePage.logIn}</Link>
        </Alert>
      )}

      <section aria-label={S.homePage.statistics} className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {tiles.map((t) => (
          <div key={t.label} className="card p-5">
            <span className="inline-flex rounded-lg bg-brand-50 p-2 text-brand-700"><Icon name={t.icon} className="h-6 w-6" /></span>
            <p className="mt-2 text-2xl font-bold text-slate-900">{t.value}</p>
            <p className="text-sm text-slate-600">{t.label}</p>
          </div>
        ))}
      </section>

      <Section id="services-title" title={S.homePage.services}>
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
            <h3 className="mt-2 font-semibold">{S.homePage.helpline}</h3>
            <p className="mt-1 text-sm text-slate-600">{S.homePage.helplineText}</p>
          </div>
        </div>
      </Section>

      <section aria-labelledby="live-title" className="card p-6">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 id="live-title" className="text-xl font-bold">{S.homePage.liveStatus}</h2>
          <LiveClock className="rounded-md bg-slate-100 px-3 py-1 text-slate-700" />
        </div>
        {stats.isError && (
          <div className="mb-4">
            <Alert tone={signedIn ? 'warning' : 'error'}>{homeErrorMessage(stats.error, signedIn)}</Alert>
          </div>
        )}
        {loading ? (
          <p className="mb-4 text-lg text-slate-500" role="status">{S.homePage.loadingFigures}</p>
        ) : (
          <p className="mb-4 text-lg" aria-live="polite">
            {S.homePage.availableOf(figures.ambulances.available, figures.ambulances.total)}
          </p>
        )}
        <div className="mb-4 grid grid-cols-3 gap-3 text-center text-sm">
          <div className="rounded-lg bg-green-50 p-3"><p className="text-lg font-bold text-green-700">{loading ? '…' : figures.ambulances.available}</p>{S.ambulanceStatus.AVAILABLE}</div>
          <div className="rounded-lg bg-blue-50 p-3"><p className="text-lg font-bold text-blue-700">{loading ? '…' : figures.ambulances.onDuty}</p>{S.ambulanceStatus.ON_DUTY}</div>
          <div className="rounded-lg bg-amber-50 p-3"><p className="text-lg font-bold text-amber-700">{loading ? '…' : figures.ambulances.maintenance}</p>{S.ambulanceStatus.MAINTENANCE}</div>
        </div>
        {figures.available.length > 0 && (
          <div className="mb-4">
            <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500">{S.homePage.readyToDispatch}</h3>
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
            <button type="button" className="btn-primary" onClick={() => stats.refetch()}>{S.common.retry}</button>
          )}
          <button type="button" className="btn-secondary" onClick={() => stats.refetch()} disabled={stats.isFetching}>
            {stats.isFetching && !loading ? S.homePage.refreshing : S.homePage.refresh}
          </button>
        </div>
      </section>
    </div>
  )
}
