import { CountCards } from '@/components/CountCards'
import { EmptyState } from '@/components/Feedback'
import { ListFilters } from '@/components/ListFilters'
import { Pagination } from '@/components/Pagination'
import { QueryResult } from '@/components/QueryResult'
import type { Ambulance, AmbulanceStatus } from '@/lib/types'
import { useFlash } from '@/lib/useFlash'
import { usePagedFilter } from '@/lib/usePagedFilter'
import { S } from '@/strings'
import { toggledStatus, useAdminAmbulances, useRemoveAmbulance, useSetAmbulanceStatus } from '../api/admin'
import { crewByAmbulance, useAllCrew } from '../api/crew'
import { AddAmbulanceForm } from '../components/AddAmbulanceForm'
import { ManageHeader, useAddPanel } from '../components/AdminPageHeader'
import { AmbulanceGroups } from '../components/AmbulanceGroups'
import { useRemoval } from '../components/useRemoval'

const PAGE_SIZE = 5
const statuses: { value: AmbulanceStatus; label: string }[] = [
  { value: 'AVAILABLE', label: 'Available' },
  { value: 'ON_DUTY', label: 'On Duty' },
  { value: 'MAINTENANCE', label: 'Maintenance' },
]
const noAmbulances: Ambulance[] = []
const matches = (a: Ambulance, q: string) => a.number.toLowerCase().includes(q) || (a.driverInfo ?? '').toLowerCase().includes(q)
const statusOf = (a: Ambulance) => a.status

export default function AdminAmbulancesPage() {
  const ambulances = useAdminAmbulances()
  const setStatus = useSetAmbulanceStatus()
  const crew = useAllCrew()
  const [flash, setFlash, outcome] = useFlash(3000)
  const panel = useAddPanel(S.ambulanceAdded, setFlash)
  const all = ambulances.data ?? noAmbulances
  const list = usePagedFilter<Ambulance, AmbulanceStatus>({ items: all, matches, statusOf, pageSize: PAGE_SIZE })
  const removal = useRemoval<Ambulance>({
    remove: useRemoveAmbulance(),
    question: 'Are you sure you want to remove this ambulance from the system?',
    confirmLabel: 'Remove Ambulance',
    removed: S.ambulanceRemoved,
    failed: S.removeAmbulanceFailed,
    outcome,
  })
  const count = (s: AmbulanceStatus) => all.filter((a) => a.status === s).length

  const toggle = (a: Ambulance) =>
    setStatus.mutate({ ambulanceId: a.id, status: toggledStatus(a.status) }, outcome(S.statusChanged, S.statusChangeFailed))

  return (
    <div className="space-y-6">
      <ManageHeader title="Manage Ambulances" addLabel="Add Ambulance" panel={panel} flash={flash}>
        <AddAmbulanceForm open={panel.open} onAdded={panel.onAdded} />
      </ManageHeader>
      <CountCards
        label="Fleet counts"
        counts={[
          { label: 'Total', value: all.length, style: 'text-slate-900' },
          { label: 'Available', value: count('AVAILABLE'), style: 'text-green-700' },
          { label: 'On Duty', value: count('ON_DUTY'), style: 'text-blue-700' },
          { label: 'Maintenance', value: count('MAINTENANCE'), style: 'text-amber-700' },
        ]}
      />
      <ListFilters
        list={list}
        search={{ id: 'amb-search', label: 'Search ambulances', placeholder: 'Search by number or driver', className: 'max-w-xs' }}
        status={{ id: 'amb-filter', options: statuses }}
      />
      <QueryResult
        query={ambulances}
        errorMessage={S.ambulancesFailed}
        isEmpty={list.filtered.length === 0}
        empty={
          <EmptyState title="No Ambulances Found" text={list.filtering ? 'No ambulances match your search criteria.' : 'No ambulances have been added yet.'}>
            {!list.filtering && <button type="button" className="btn-primary" onClick={panel.show}>Add First Ambulance</button>}
          </EmptyState>
        }
      >
        <p className="text-sm text-slate-600">Showing {list.start + 1}-{list.start + list.shown.length} of {list.filtered.length} ambulances</p>
        <AmbulanceGroups ambulances={list.shown} crew={crew.data ? crewByAmbulance(crew.data) : undefined} busy={setStatus.isPending} onToggle={toggle} onRemove={removal.ask} />
        <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
      </QueryResult>
      {removal.dialog}
    </div>
  )
}
