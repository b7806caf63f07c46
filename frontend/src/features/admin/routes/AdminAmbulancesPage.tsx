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
const statuses = (['AVAILABLE', 'ON_DUTY', 'MAINTENANCE'] as const).map((value) => ({
  value,
  get label() {
    return S.ambulanceStatus[value]
  },
}))
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
    question: S.adminAmbulances.removeQuestion,
    confirmLabel: S.adminAmbulances.removeConfirm,
    removed: S.ambulanceRemoved,
    failed: S.removeAmbulanceFailed,
    outcome,
  })
  const count = (s: AmbulanceStatus) => all.filter((a) => a.status === s).length

  const toggle = (a: Ambulance) =>
    setStatus.mutate({ ambulanceId: a.id, status: toggledStatus(a.status) }, outcome(S.statusChanged, S.statusChangeFailed))

  return (
    <div className="space-y-6">
      <ManageHeader title={S.adminAmbulances.title} addLabel={S.adminAmbulances.add} panel={panel} flash={flash}>
        <AddAmbulanceForm open={panel.open} onAdded={panel.onAdded} />
      </ManageHeader>
      <CountCards
        label={S.adminAmbulances.countsLabel}
        counts={[
          { label: S.adminBookings.total, value: all.length, style: 'text-slate-900' },
          { label: S.ambulanceStatus.AVAILABLE, value: count('AVAILABLE'), style: 'text-green-700' },
          { label: S.ambulanceStatus.ON_DUTY, value: count('ON_DUTY'), style: 'text-blue-700' },
          { label: S.ambulanceStatus.MAINTENANCE, value: count('MAINTENANCE'), style: 'text-amber-700' },
        ]}
      />
      <ListFilters
        list={list}
        search={{ id: 'amb-search', label: S.adminAmbulances.search, placeholder: S.adminAmbulances.searchPlaceholder, className: 'max-w-xs' }}
        status={{ id: 'amb-filter', options: statuses }}
      />
      <QueryResult
        query={ambulances}
        errorMessage={S.ambulancesFailed}
        isEmpty={list.filtered.length === 0}
        empty={
          <EmptyState title={S.adminAmbulances.emptyTitle} text={list.filtering ? S.adminAmbulances.noMatch : S.adminAmbulances.none}>
            {!list.filtering && <button type="button" className="btn-primary" onClick={panel.show}>{S.adminAmbulances.addFirst}</button>}
          </EmptyState>
        }
      >
        <p className="text-sm text-slate-600">{S.adminAmbulances.showing(list.start + 1, list.start + list.shown.length, list.filtered.length)}</p>
        <AmbulanceGroups ambulances={list.shown} crew={crew.data ? crewByAmbulance(crew.data) : undefined} busy={setStatus.isPending} onToggle={toggle} onRemove={removal.ask} />
        <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
      </QueryResult>
      {removal.dialog}
    </div>
  )
}
