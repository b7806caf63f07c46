import type { IntervalStat, ResponseTimeReport, ResponseTimeRow } from '@/lib/types'
import { formatCount, formatDay, formatShare } from '../format'
import { R } from '../strings'

/** The intervals as columns, in the CSV's order. */
const COLUMNS = ['dispatch', 'answer', 'travel', 'onScene', 'transport', 'handover', 'response'] as const

/** m:ss, compact enough for a table of many columns; '—' for none. */
function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const pad = (n: number) => String(n).padStart(2, '0')
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`
}

function StatCells({ stat }: { stat: IntervalStat | null | undefined }) {
  if (!stat) {
    return (
      <>
        <td className="text-slate-400">{R().noFigure}</td>
        <td className="text-slate-400">{R().noFigure}</td>
        <td className="border-r border-slate-200 text-slate-400">{R().noFigure}</td>
      </>
    )
  }
  return (
    <>
      <td>{clock(stat.p50)}</td>
      <td className="font-semibold">{clock(stat.p90)}</td>
      <td className="border-r border-slate-200">{clock(stat.max)}</td>
    </>
  )
}

function Row({ row, total = false }: { row: ResponseTimeRow; total?: boolean }) {
  return (
    <tr className={total ? 'border-t-2 border-slate-300 bg-slate-50 font-semibold' : 'border-t border-slate-100'}>
      <th scope="row" className={`sticky left-0 whitespace-nowrap px-3 py-2 text-left ${total ? 'bg-slate-50' : 'bg-white'}`}>
        <span className="block">{total ? R().summary : row.period}</span>
        {/* A day names itself; a week, a month or the total says which days it holds. */}
        {(total || row.from !== row.to || row.period !== row.from) && (
          <span className="block text-xs font-normal text-slate-500">
            {row.from === row.to ? formatDay(row.from) : `${formatDay(row.from)} – ${formatDay(row.to)}`}
          </span>
        )}
      </th>
      <td className="border-r border-slate-200">{formatCount(row.count)}</td>
      {COLUMNS.map((c) => (
        <StatCells key={c} stat={row.intervals[c]} />
      ))}
      <td>{formatShare(row.withinTarget.answer)}</td>
      <td className="border-r border-slate-200">{formatShare(row.withinTarget.pickup)}</td>
      <td>{formatCount(row.moved)}</td>
      <td>{formatCount(row.unanswered)}</td>
      <td>{formatCount(row.cancelled)}</td>
    </tr>
  )
}

/** Every period's figures and the whole range's, the same numbers as the CSV. */
export function ReportTable({ report, answerTarget, pickupTarget }: { report: ResponseTimeReport; answerTarget: string; pickupTarget: string }) {
  return (
    <section aria-labelledby="report-table-title" className="card overflow-hidden">
      <div className="px-4 pt-4 pb-2">
        <h2 id="report-table-title" className="text-lg font-semibold text-slate-900">{R().table}</h2>
        <p className="text-sm text-slate-600">{R().tableNote}</p>
      </div>
      {/* Scrolls sideways on a phone, the period column staying; focusable so a keyboard can scroll it too. */}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-labelledby="report-table-title">
        <table className="min-w-full text-right text-sm tabular-nums [&_td]:px-3 [&_td]:py-2 [&_th]:px-3 [&_th]:py-2">
          <caption className="sr-only">{R().table}</caption>
          <thead className="bg-slate-50 text-xs text-slate-700">
            <tr>
              <th scope="col" rowSpan={2} className="sticky left-0 bg-slate-50 text-left align-bottom">{R().period}</th>
              <th scope="col" rowSpan={2} className="border-r border-slate-200 align-bottom">{R().trips}</th>
              {COLUMNS.map((c) => (
                <th key={c} scope="colgroup" colSpan={3} className="border-r border-slate-200 text-center">{R().intervals[c]}</th>
              ))}
              <th scope="col" rowSpan={2} className="align-bottom">{R().withinAnswer(answerTarget)}</th>
              <th scope="col" rowSpan={2} className="border-r border-slate-200 align-bottom">{R().withinPickup(pickupTarget)}</th>
              <th scope="col" rowSpan={2} className="align-bottom">{R().moved}</th>
              <th scope="col" rowSpan={2} className="align-bottom">{R().unanswered}</th>
              <th scope="col" rowSpan={2} className="align-bottom">{R().cancelled}</th>
            </tr>
            <tr>
              {COLUMNS.flatMap((c) => [
                <th key={`${c}-p50`} scope="col" className="font-normal">{R().p50}</th>,
                <th key={`${c}-p90`} scope="col">{R().p90}</th>,
                <th key={`${c}-max`} scope="col" className="border-r border-slate-200 font-normal">{R().max}</th>,
              ])}
            </tr>
          </thead>
          <tbody>
            {report.rows.map((row) => (
              <Row key={row.period} row={row} />
            ))}
            <Row row={report.total} total />
          </tbody>
        </table>
      </div>
    </section>
  )
}
