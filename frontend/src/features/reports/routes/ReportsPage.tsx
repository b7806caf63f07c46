import { useId, useState } from 'react'
import { Link } from 'react-router'
import { useAllHospitals } from '@/features/hospitals'
import { Alert, EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { PageHeader } from '@/components/PageHeader'
import { Section } from '@/components/Section'
import { messageOf } from '@/lib/api'
import type { BookingType, ResponseTimeReport } from '@/lib/types'
import { S } from '@/strings'
import { downloadCsv, useResponseTimes, type Period, type ReportParams } from '../api/responseTimes'
import { Histogram, TrendChart, type TrendInterval } from '../components/Charts'
import { ReportTable } from '../components/ReportTable'
import { formatCount, formatSeconds, formatShare } from '../format'
import { R } from '../strings'

/**
 * The first view: the whole service's emergencies, week by week, over the 12 weeks the
 * server gives without dates (up to today in the service's time zone, not the browser's).
 */
const FIRST: ReportParams = { from: null, to: null, by: 'week', hospitalId: null, type: 'EMERGENCY' }

export default function ReportsPage() {
  const [params, setParams] = useState<ReportParams>(FIRST)
  const report = useResponseTimes(params)
  const [download, setDownload] = useState<'idle' | 'busy' | 'failed'>('idle')
  const set = (change: Partial<ReportParams>) => setParams((p) => ({ ...p, ...change }))

  // The dates shown: those asked for, else the ones the server chose.
  const shown = { ...params, from: params.from ?? report.data?.from ?? null, to: params.to ?? report.data?.to ?? null }

  const onDownload = async () => {
    if (shown.from === null || shown.to === null) return
    setDownload('busy')
    try {
      await downloadCsv({ ...shown, from: shown.from, to: shown.to })
      setDownload('idle')
    } catch {
      setDownload('failed')
    }
  }

  return (
    <div className="space-y-6">
      <Link to="/admin" className="btn-ghost -ml-3">{S.common.backToDashboard}</Link>
      <PageHeader
        title={R().title}
        subtitle={R().subtitle}
        action={
          <button type="button" className="btn-secondary" onClick={onDownload} disabled={download === 'busy' || !report.data}>
            {download === 'busy' ? R().downloading : R().download}
          </button>
        }
      />
      {download === 'failed' && <Alert tone="error">{R().downloadFailed}</Alert>}
      <Filters params={shown} set={set} />
      <Results report={report} />
    </div>
  )
}

function Filters({ params, set }: { params: ReportParams; set: (change: Partial<ReportParams>) => void }) {
  // Changing one date keeps the other as shown.
  const setDates = (change: { from?: string; to?: string }) => set({ from: params.from, to: params.to, ...change })
  const id = useId()
  const hospitals = useAllHospitals()
  const kinds: { value: BookingType; label: string }[] = [
    { value: 'EMERGENCY', label: R().emergencies },
    { value: 'NORMAL', label: R().normal },
  ]
  return (
    <form role="search" aria-label={R().filters} className="card grid grid-cols-2 gap-4 p-4 lg:grid-cols-5" onSubmit={(e) => e.preventDefault()}>
      <div>
        <label htmlFor={`${id}-from`} className="label">{R().from}</label>
        <input id={`${id}-from`} type="date" className="input" value={params.from ?? ''} max={params.to ?? undefined} required onChange={(e) => e.target.value && setDates({ from: e.target.value })} />
      </div>
      <div>
        <label htmlFor={`${id}-to`} className="label">{R().to}</label>
        <input id={`${id}-to`} type="date" className="input" value={params.to ?? ''} min={params.from ?? undefined} required onChange={(e) => e.target.value && setDates({ to: e.target.value })} />
      </div>
      <div>
        <label htmlFor={`${id}-by`} className="label">{R().by}</label>
        <select id={`${id}-by`} className="input" value={params.by} onChange={(e) => set({ by: e.target.value as Period })}>
          {(['day', 'week', 'month'] as const).map((p) => (
            <option key={p} value={p}>{R().periods[p]}</option>
          ))}
        </select>
      </div>
      <div className="col-span-2 lg:col-span-1">
        <label htmlFor={`${id}-hospital`} className="label">{R().hospital}</label>
        <select
          id={`${id}-hospital`}
          className="input"
          value={params.hospitalId ?? ''}
          onChange={(e) => set({ hospitalId: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">{R().wholeService}</option>
          {(hospitals.data ?? []).map((h) => (
            <option key={h.id} value={h.id}>{h.name}</option>
          ))}
        </select>
      </div>
      <fieldset className="col-span-2 lg:col-span-1">
        <legend className="label">{R().kinds}</legend>
        <div className="flex rounded-lg border border-slate-300 p-0.5">
          {kinds.map((k) => (
            <label
              key={k.value}
              className={`flex-1 cursor-pointer rounded-md px-2 py-1.5 text-center text-sm font-medium ${params.type === k.value ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
            >
              <input type="radio" name={`${id}-kind`} value={k.value} checked={params.type === k.value} onChange={() => set({ type: k.value })} className="sr-only" />
              {k.label}
            </label>
          ))}
        </div>
      </fieldset>
    </form>
  )
}

function Results({ report }: { report: ReturnType<typeof useResponseTimes> }) {
  if (report.isPending) return <Spinner label={R().loading} />
  if (report.isError && !report.data) {
    return <ErrorState message={messageOf(report.error, R().failed)} error={report.error} onRetry={() => report.refetch()} />
  }
  const data = report.data!
  return (
    <div className="space-y-6" aria-busy={report.isFetching}>
      {report.isError && <Alert tone="error">{messageOf(report.error, R().failed)}</Alert>}
      <p className="text-sm text-slate-600">{R().timeZone(data.timeZone)}</p>
      {data.total.count === 0 ? <EmptyState title={R().emptyTitle} text={R().emptyText} /> : <Figures report={data} />}
    </div>
  )
}

function Figures({ report }: { report: ResponseTimeReport }) {
  const answerTarget = report.targets.answerSeconds
  const pickupTarget = report.targets.pickupMinutes * 60
  const total = report.total
  const cards = [
    { label: R().trips, value: formatCount(total.count) },
    { label: R().answerP90, value: formatSeconds(total.intervals.answer?.p90) },
    { label: R().responseP90, value: formatSeconds(total.intervals.response?.p90) },
    { label: R().withinAnswer(formatSeconds(answerTarget)), value: formatShare(total.withinTarget.answer) },
    { label: R().withinPickup(formatSeconds(pickupTarget)), value: formatShare(total.withinTarget.pickup) },
    { label: `${R().moved} / ${R().unanswered} / ${R().cancelled}`, value: [total.moved, total.unanswered, total.cancelled].map(formatCount).join(' / ') },
  ]
  const trends: { interval: TrendInterval; target?: number }[] = [
    { interval: 'answer', target: answerTarget },
    { interval: 'response', target: pickupTarget },
    { interval: 'travel' },
    { interval: 'onScene' },
    { interval: 'transport' },
  ]
  if (report.rows.some((r) => r.intervals.handover)) trends.push({ interval: 'handover' })
  return (
    <>
      <Section id="report-summary" title={R().summary} headingClassName="sr-only">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {cards.map((c) => (
            <div key={c.label} className="card p-4">
              <dt className="text-xs font-medium text-slate-600">{c.label}</dt>
              <dd className="mt-1 text-xl font-bold text-slate-900 tabular-nums">{c.value}</dd>
            </div>
          ))}
        </dl>
      </Section>
      <Section id="report-trends" title={R().trends} intro={R().trendsIntro} headingClassName="text-lg font-semibold" className="space-y-3">
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {trends.map((t) => (
            <TrendChart key={t.interval} report={report} interval={t.interval} targetSeconds={t.target} />
          ))}
        </div>
      </Section>
      <Section id="report-histograms" title={R().histograms} headingClassName="text-lg font-semibold" className="space-y-3">
        <div className="grid gap-4 md:grid-cols-2">
          <Histogram bins={report.histograms.answer} title={R().answerHistogram} targetSeconds={answerTarget} minutes={false} />
          <Histogram bins={report.histograms.response} title={R().responseHistogram} targetSeconds={pickupTarget} minutes />
        </div>
      </Section>
      <ReportTable report={report} answerTarget={formatSeconds(answerTarget)} pickupTarget={formatSeconds(pickupTarget)} />
    </>
  )
}
