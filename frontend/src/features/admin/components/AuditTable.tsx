import { Link } from 'react-router'
import { CellLines, type Column, DataTable } from '@/components/DataTable'
import { formatDateTime } from '@/lib/format'
import type { AuditRecord } from '@/lib/types'
import { A } from '../strings'

/** What an action was done to, as people say it. */
function targetText(r: AuditRecord): string {
  const t = r.target
  const name = t.name ?? String(t.id ?? '')
  switch (t.kind) {
    case 'BOOKING':
      return A().audit.targetBooking(t.id ?? 0)
    case 'AMBULANCE':
      return A().audit.targetAmbulance(name)
    case 'ALERT':
      return A().audit.targetAlert(t.id ?? 0, name)
    case 'SETTINGS':
      return A().audit.targetSettings
    case 'CREW':
      return A().audit.targetCrew(name)
    case 'HOSPITAL':
      return A().audit.targetHospital(name)
  }
}

/** A field's name in the person's language: a setting's label, a known field's, else as the API names it. */
function fieldName(key: string): string {
  const settings = A().systemSettings as unknown as Record<string, unknown>
  const label = settings[key]
  if (typeof label === 'string') return label
  return A().audit.fields[key] ?? key
}

/** A value as a line of text: a list joined, a nested object as `KEY value` pairs. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return A().audit.none
  if (Array.isArray(value)) return value.map(valueText).join(', ')
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k} ${valueText(v)}`)
      .join(', ')
  }
  return String(value)
}

/** `field: before → after` for each field either side names (one side only: its value). */
function changeLines(r: AuditRecord): string[] {
  const before = (r.before ?? {}) as Record<string, unknown>
  const after = (r.after ?? {}) as Record<string, unknown>
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
  return keys.map((k) => {
    const label = fieldName(k)
    if (!(k in before)) return `${label}: ${valueText(after[k])}`
    if (!(k in after)) return `${label}: ${valueText(before[k])}`
    return `${label}: ${valueText(before[k])} → ${valueText(after[k])}`
  })
}

/** The records as a table (cards on phones); the booking and ambulances each link to their own trail. */
export function AuditTable({ records }: { records: AuditRecord[] }) {
  const columns: Column<AuditRecord>[] = [
    { name: A().audit.when, className: 'whitespace-nowrap', cell: (r) => formatDateTime(r.at) },
    { name: A().audit.who, cell: (r) => r.by.username },
    { name: A().audit.what, cell: (r) => A().audit.actions[r.action] ?? r.action },
    {
      name: A().audit.target,
      cell: (r) => {
        const booking = r.target.bookingId
        // A booking's number opens that booking's own trail.
        const link = booking ? (
          <Link className="text-blue-700 hover:underline" to={`/admin/audit?bookingId=${booking}`}>
            {A().audit.targetBooking(booking)}
          </Link>
        ) : undefined
        return r.target.kind === 'BOOKING' ? link : <CellLines main={targetText(r)} detail={link} />
      },
    },
    {
      name: A().audit.change,
      cell: (r) => {
        const lines = changeLines(r)
        return lines.length === 0 ? (
          A().audit.none
        ) : (
          <ul className="space-y-0.5 break-words">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )
      },
    },
  ]
  return (
    <DataTable
      caption={A().audit.caption}
      columns={columns}
      rows={records}
      rowKey={(r) => `${r.at}|${r.action}|${r.by.id}|${r.target.kind}|${r.target.id ?? ''}`}
    />
  )
}
