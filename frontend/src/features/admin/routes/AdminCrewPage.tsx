import { useState } from 'react'
import { CellLines, type Column, DataTable } from '@/components/DataTable'
import { EmptyState } from '@/components/Feedback'
import { QueryResult } from '@/components/QueryResult'
import { telHref } from '@/lib/format'
import { useFlash } from '@/lib/useFlash'
import { S } from '@/strings'
import { useAdminAmbulances } from '../api/admin'
import { useAllCrew, useRemoveCrew } from '../api/crew'
import type { Crew } from '@/lib/types'
import { AddCrewForm } from '../components/AddCrewForm'
import { HospitalStaffSection } from '../components/HospitalStaffSection'
import { ManageHeader, useAddPanel } from '../components/AdminPageHeader'
import { MoveCrewDialog } from '../components/MoveCrewDialog'
import { useRemoval } from '../components/useRemoval'

/** /admin/crew: create crew accounts, move them to another ambulance, remove them; create hospital staff accounts. */
export default function AdminCrewPage() {
  const crew = useAllCrew()
  const ambulances = useAdminAmbulances()
  const [flash, setFlash, outcome] = useFlash(3000)
  const panel = useAddPanel(S.crewAdmin.added, setFlash)
  const [moving, setMoving] = useState<Crew | null>(null)
  const removal = useRemoval<Crew>({
    remove: useRemoveCrew(),
    question: S.crewAdmin.removeQuestion,
    confirmLabel: S.crewAdmin.removeConfirm,
    removed: S.crewAdmin.removed,
    failed: S.crewAdmin.removeFailed,
    outcome,
  })
  const fleet = ambulances.data ?? []
  const ambulanceName = (id: number) => {
    const a = fleet.find((x) => x.id === id)
    return a ? `${a.number}${a.hospital?.name ? ` · ${a.hospital.name}` : ''}` : S.crewAdmin.unknownAmbulance(id)
  }
  const rows = [...(crew.data ?? [])].sort((a, b) => a.username.localeCompare(b.username))

  const columns: Column<Crew>[] = [
    {
      name: S.crewAdmin.username,
      cell: (c) => <CellLines className="min-w-0 break-words" main={c.username} detail={c.email} />,
    },
    { name: S.crewAdmin.phone, cell: (c) => <a className="text-blue-700 hover:underline" href={telHref(c.phone)}>{c.phone}</a> },
    { name: S.crewAdmin.ambulance, cell: (c) => ambulanceName(c.ambulanceId) },
    {
      name: S.adminBookings.actionsCol,
      hidden: true,
      className: 'md:text-right',
      cell: (c) => (
        <span className="flex gap-2 md:justify-end">
          <button type="button" className="btn-secondary px-3 py-1" aria-label={S.crewAdmin.moveLabel(c.username)} onClick={() => setMoving(c)}>
            {S.crewAdmin.move}
          </button>
          <button type="button" className="btn-secondary px-3 py-1 text-red-700" aria-label={S.crewAdmin.removeLabel(c.username)} onClick={() => removal.ask(c)}>
            {S.crewAdmin.remove}
          </button>
        </span>
      ),
    },
  ]

  return (
    <div className="space-y-6">
      <ManageHeader title={S.crewAdmin.title} subtitle={S.crewAdmin.subtitle} addLabel={S.crewAdmin.add} panel={panel} flash={flash}>
        <AddCrewForm open={panel.open} ambulances={fleet} onAdded={panel.onAdded} />
      </ManageHeader>
      <QueryResult
        query={crew}
        errorMessage={S.crewAdmin.loadFailed}
        isEmpty={rows.length === 0}
        empty={
          <EmptyState title={S.crewAdmin.emptyTitle} text={S.crewAdmin.emptyText}>
            {!panel.open && <button type="button" className="btn-primary" onClick={panel.show}>{S.crewAdmin.add}</button>}
          </EmptyState>
        }
      >
        <DataTable caption={S.crewAdmin.caption} columns={columns} rows={rows} rowKey={(c) => c.id} />
      </QueryResult>
      {moving && (
        <MoveCrewDialog
          crew={moving}
          ambulances={fleet}
          onClose={() => setMoving(null)}
          onMoved={() => {
            setMoving(null)
            setFlash({ tone: 'success', text: S.crewAdmin.moved })
          }}
        />
      )}
      {removal.dialog}
      {/* The receiving hospitals' staff accounts are made here too, like crew accounts. */}
      <HospitalStaffSection />
    </div>
  )
}
