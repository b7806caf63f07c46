import { EmptyState } from '@/components/Feedback'
import { ListFilters } from '@/components/ListFilters'
import { Pagination } from '@/components/Pagination'
import { QueryResult } from '@/components/QueryResult'
import { useAllHospitals } from '@/features/hospitals'
import { formatCoord } from '@/lib/format'
import type { Hospital } from '@/lib/types'
import { useFlash } from '@/lib/useFlash'
import { usePagedFilter } from '@/lib/usePagedFilter'
import { S } from '@/strings'
import { useRemoveHospital } from '../api/admin'
import { AddHospitalForm } from '../components/AddHospitalForm'
import { ManageHeader, useAddPanel } from '../components/AdminPageHeader'
import { useRemoval } from '../components/useRemoval'

const PAGE_SIZE = 5
const matches = (h: Hospital, q: string) => h.name.toLowerCase().includes(q) || h.address.toLowerCase().includes(q)
const noHospitals: Hospital[] = []

export default function AdminHospitalsPage() {
  const hospitals = useAllHospitals()
  const [flash, setFlash, outcome] = useFlash(3000)
  const panel = useAddPanel(S.hospitalAdded, setFlash)
  const list = usePagedFilter({ items: hospitals.data ?? noHospitals, matches, pageSize: PAGE_SIZE })
  const removal = useRemoval<Hospital>({
    remove: useRemoveHospital(),
    question: S.adminHospitals.removeQuestion,
    confirmLabel: S.adminHospitals.removeConfirm,
    removed: S.hospitalRemoved,
    failed: S.removeHospitalFailed,
    outcome,
  })

  return (
    <div className="space-y-6">
      <ManageHeader title={S.adminHospitals.title} addLabel={S.adminHospitals.add} panel={panel} flash={flash}>
        <AddHospitalForm open={panel.open} onAdded={panel.onAdded} />
      </ManageHeader>
      <ListFilters
        list={list}
        search={{ id: 'hospital-search', label: S.adminHospitals.search, placeholder: S.adminHospitals.searchPlaceholder, className: 'max-w-md' }}
      />
      <QueryResult
        query={hospitals}
        errorMessage={S.hospitalsFailed}
        isEmpty={list.filtered.length === 0}
        empty={<EmptyState title={S.adminHospitals.emptyTitle} text={list.search ? S.adminHospitals.noMatch : S.adminHospitals.none} />}
      >
        <ul className="space-y-3">
          {list.shown.map((h) => (
            <li key={h.id} className="card flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-semibold">{h.name}</p>
                <p className="text-sm text-slate-600">{h.address}</p>
                <p className="text-xs text-slate-500">
                  {formatCoord(h.latitude)}, {formatCoord(h.longitude)}
                  {h.contactInfo ? ` · ${h.contactInfo}` : ''}
                </p>
              </div>
              <button type="button" className="btn-secondary text-red-700" onClick={() => removal.ask(h)} aria-label={S.adminHospitals.removeLabel(h.name)}>
                {S.crewAdmin.remove}
              </button>
            </li>
          ))}
        </ul>
        <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
      </QueryResult>
      {removal.dialog}
    </div>
  )
}
