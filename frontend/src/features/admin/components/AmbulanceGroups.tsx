import { useMemo } from 'react'
import { PresenceBadge } from '@/components/PresenceBadge'
import { StatusBadge } from '@/components/StatusBadge'
import { ambulanceTypeLabel } from '@/lib/format'
import type { Ambulance, Crew } from '@/lib/types'
import { S } from '@/strings'

/** Ambulances as cards under their hospital's name, in the order given. */
export function AmbulanceGroups({
  ambulances,
  crew,
  busy,
  onToggle,
  onRemove,
}: {
  ambulances: Ambulance[]
  /** Each ambulance's crew accounts (undefined while they load). */
  crew: Map<number, Crew[]> | undefined
  /** A status change is under way: Toggle Status waits. */
  busy: boolean
  onToggle: (ambulance: Ambulance) => void
  onRemove: (ambulance: Ambulance) => void
}) {
  const groups = useMemo(() => {
    const byHospital = new Map<number, { name: string; address: string; items: Ambulance[] }>()
    for (const a of ambulances) {
      const g = byHospital.get(a.hospitalId) ?? { name: a.hospital?.name ?? S.unknownHospital, address: a.hospital?.address ?? '', items: [] }
      g.items.push(a)
      byHospital.set(a.hospitalId, g)
    }
    return [...byHospital.entries()]
  }, [ambulances])

  return groups.map(([hospitalId, g]) => (
    <section key={hospitalId} aria-label={g.name} className="space-y-3">
      <div>
        <h2 className="font-semibold">{g.name}</h2>
        <p className="text-sm text-slate-600">{g.address}</p>
      </div>
      <ul className="grid gap-3 md:grid-cols-2">
        {g.items.map((a) => (
          <li key={a.id} className="card space-y-2 p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-semibold">{a.number}</p>
              <span className="flex flex-wrap items-center gap-2">
                <PresenceBadge presence={a.crewPresence} />
                <StatusBadge status={a.status} />
              </span>
            </div>
            <p className="text-sm text-slate-600">{ambulanceTypeLabel[a.type] ?? a.type}</p>
            <p className="text-sm">{S.adminAmbulances.driver(a.driverInfo ?? '—')}</p>
            <p className="text-sm">{S.adminAmbulances.contact(a.contactInfo ?? '—')}</p>
            {crew && (
              <p className="text-sm">
                {S.crewAdmin.crewOf}:{' '}
                {(crew.get(a.id) ?? []).map((c) => `${c.username} (${c.phone})`).join(', ') || <span className="text-slate-500">{S.crewAdmin.noCrew}</span>}
              </p>
            )}
            <div className="flex gap-2 pt-1">
              <button type="button" className="btn-blue" disabled={busy} onClick={() => onToggle(a)}>{S.adminAmbulances.toggle}</button>
              <button type="button" className="btn-secondary text-red-700" aria-label={S.adminAmbulances.removeLabel(a.number)} onClick={() => onRemove(a)}>{S.crewAdmin.remove}</button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  ))
}
