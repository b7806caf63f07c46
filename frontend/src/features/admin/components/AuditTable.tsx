import { Link } from 'react-router'
import { CellLines, type Column, DataTable } from '@/components/DataTable'
import { formatDateTime } from '@/lib/format'
import type { AuditRecord } from '@/lib/types'
import { S } from '@/strings'

/** What an action was done to, as people say it. */
function targetText(r: AuditRecord): string {
  const t = r.target
  const name = t.name ?? String(t.id ?? '')
  switch (t.kind) {
    case 'BOOKING':
      return S.audit.targetBooking(t.id ?? 0)
    case 'AMBULANCE':
      return S.audit.targetAmbulance(name)
    case 'ALERT':
      return S.audit.targetAlert(t.id ?? 0, name)
    case 'SETTINGS':
      return S.audit.targetSettings
    case 'CREW':
      return S.audit.targetCrew(name)
    case 'HOSPITAL':
      return S.audit.targetHospital(name)
  }
}

/** A field's name in the person's language: a setting's label, a known field's, else as the API names it. */
function fieldName(key: string): string {
  const settings = S.systemSettings as unknown as Record<string, unknown>
  const label = settings[key]
  if (typeof label === 'string') return label
  return S.audit.fields[key] ?? key
}

/** A value as a line of text: a list joined, a nested object as `KEY value` pairs. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return S.audit.none
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
    { name: S.audit.when, className: 'whitespace-nowrap', cell: (r) => formatDateTime(r.at) },
    { name: S.audit.who, cell: (r) => r.by.username },
    { name: S.audit.what, cell: (r) => S.audit.actions[r.action] ?? r.action },
    {
      name: S.audit.target,
      cell: (r) => {
        const booking = r.target.bookingId
        // A booking's number opens that booking's own trail.
        const link = booking ? (
          <Link className="text-blue-700 hover:underline" to={`/admin/audit?bookingId=${booking}`}>
            {S.audit.targetBooking(booking)}
          </Link>
        ) : undefined
        return r.target.kind === 'BOOKING' ? link : <CellLines main={targetText(r)} detail={link} />
      },
    },
    {
      name: S.audit.change,
      cell: (r) => {
        const lines = changeLines(r)
        return lines.length === 0 ? (
          S.audit.none
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
      caption={S.audit.caption}
      columns={columns}
      rows={records}
      rowKey={(r) => `${r.at}|${r.action}|${r.by.id}|${r.target.kind}|${r.target.id ?? ''}`}
    />
  )
}
