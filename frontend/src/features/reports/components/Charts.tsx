// The report's charts, drawn by Recharts: only this screen imports it, and the screen is
// lazy-loaded, so the library stays out of the first load (scripts/bundle-budget.mjs).
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { ReportBin, ResponseTimeReport } from '@/lib/types'
import { formatCount, formatSeconds } from '../format'
import { R } from '../strings'

/** The intervals drawn as trends, and the target each has (in seconds), if any. */
export type TrendInterval = 'answer' | 'response' | 'travel' | 'onScene' | 'transport' | 'handover'

const BLUE = '#1d4ed8'
const ORANGE = '#c2410c'
const RED = '#b91c1c'
const GREEN = '#15803d'
const GRID = '#e2e8f0'
const TICK = { fontSize: 11, fill: '#475569' }

/** An interval's median and 90th percentile per period, with its target as a dashed line. */
export function TrendChart({
  report,
  interval,
  targetSeconds,
}: {
  report: ResponseTimeReport
  interval: TrendInterval
  targetSeconds?: number
}) {
  const name = R().intervals[interval]
  // Answers are seconds long; every other interval is read in minutes.
  const inMinutes = interval !== 'answer'
  const scale = (s: number | undefined) => (s === undefined ? null : inMinutes ? Math.round((s / 60) * 10) / 10 : s)
  const data = report.rows.map((row) => {
    const stat = row.intervals[interval]
    return { period: row.period, p50: scale(stat?.p50), p90: scale(stat?.p90) }
  })
  const target = targetSeconds === undefined ? undefined : (scale(targetSeconds) ?? undefined)
  const id = `trend-${interval}`
  return (
    <figure aria-labelledby={id} className="card p-4">
      <figcaption id={id} className="mb-2 text-sm font-semibold text-slate-800">
        {name} <span className="font-normal text-slate-500">({inMinutes ? R().minutesAxis : R().secondsAxis})</span>
      </figcaption>
      <div role="img" aria-label={R().trendLabel(name)} className="h-44">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: -12 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke={GRID} />
            <XAxis dataKey="period" tick={TICK} tickFormatter={shortPeriod} minTickGap={12} />
            <YAxis tick={TICK} allowDecimals={inMinutes} domain={[0, (max: number) => Math.max(max, target ?? 0)]} />
            <Tooltip
              formatter={(value, label) => [formatSeconds(typeof value === 'number' ? (inMinutes ? value * 60 : value) : null), label]}
            />
            <Legend iconType="plainline" wrapperStyle={{ fontSize: 12 }} />
            {/* A dot on every period: a period between two empty ones has no line to show it. */}
            <Line type="monotone" dataKey="p50" name={R().p50} stroke={BLUE} strokeWidth={2} dot={{ r: 2.5 }} isAnimationActive={false} />
            <Line type="monotone" dataKey="p90" name={R().p90} stroke={ORANGE} strokeWidth={2} dot={{ r: 2.5 }} isAnimationActive={false} />
            {target !== undefined && (
              <ReferenceLine
                y={target}
                stroke={RED}
                strokeDasharray="6 4"
                label={{ value: R().target, position: 'insideTopRight', fill: RED, fontSize: 11 }}
              />
            )}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  )
}

/** `2026-W09` → `W09`, `2026-03-01` → `03-01`: the axis has little room. */
function shortPeriod(period: string): string {
  const week = /^\d{4}-(W\d{2})$/.exec(period)
  if (week) return week[1]!
  const day = /^\d{4}-(\d{2}-\d{2})$/.exec(period)
  return day ? day[1]! : period
}

/** Trips by how long they took, the bars within the target green, the others red. */
export function Histogram({
  bins,
  title,
  targetSeconds,
  minutes,
}: {
  bins: ReportBin[]
  title: string
  targetSeconds: number
  /** Bins labelled in minutes (else seconds). */
  minutes: boolean
}) {
  const unit = (s: number) => String(minutes ? s / 60 : s)
  const data = bins.map((b) => ({
    label: b.to === null || b.to === undefined ? R().binOver(unit(b.from)) : R().binUpTo(unit(b.from), unit(b.to)),
    count: b.count,
    within: b.to !== null && b.to !== undefined && b.to <= targetSeconds,
  }))
  const id = `histogram-${minutes ? 'response' : 'answer'}`
  const total = bins.reduce((sum, b) => sum + b.count, 0)
  return (
    <figure aria-labelledby={id} className="card p-4">
      <figcaption id={id} className="mb-2 text-sm font-semibold text-slate-800">
        {title} <span className="font-normal text-slate-500">({minutes ? R().minutesAxis : R().secondsAxis})</span>
      </figcaption>
      <div role="img" aria-label={R().histogramLabel(title, formatCount(total))} className="h-48">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke={GRID} vertical={false} />
            <XAxis dataKey="label" tick={TICK} interval={0} angle={-30} textAnchor="end" height={44} />
            <YAxis tick={TICK} allowDecimals={false} />
            <Tooltip formatter={(value) => [formatCount(Number(value)), R().trips]} />
            <Bar dataKey="count" name={R().trips} isAnimationActive={false}>
              {data.map((d) => (
                <Cell key={d.label} fill={d.within ? GREEN : RED} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <p className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600">
        <span className="inline-flex items-center gap-1.5"><span aria-hidden="true" className="h-2.5 w-2.5 rounded-sm" style={{ background: GREEN }} />{R().withinTargetBar} ({formatSeconds(targetSeconds)})</span>
        <span className="inline-flex items-center gap-1.5"><span aria-hidden="true" className="h-2.5 w-2.5 rounded-sm" style={{ background: RED }} />{R().beyondTargetBar}</span>
      </p>
    </figure>
  )
}
