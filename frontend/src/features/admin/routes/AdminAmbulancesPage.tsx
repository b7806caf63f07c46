import { useState } from 'react'
import { CountCards } from '@/components/CountCards'
import { Alert, EmptyState } from '@/components/Feedback'
import { ListFilters } from '@/components/ListFilters'
import { Pagination } from '@/components/Pagination'
import { QueryResult } from '@/components/QueryResult'
import { messageOf } from '@/lib/api'
import type { Ambulance, AmbulanceStatus } from '@/lib/types'
import { useFlash } from '@/lib/useFlash'
import { usePagedFilter } from '@/lib/usePagedFilter'
import { S } from '@/strings'
import { toggledStatus, useAdminAmbulances, useRemoveAmbulance, useSetAmbulanceStatus } from '../api/admin'
import { AddAmbulanceForm } from '../components/AddAmbulanceForm'
import { AddFormToggle, AdminPageHeader } from '../components/AdminPageHeader'
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
  const [flash, setFlash] = useFlash(3000)
  const [showForm, setShowForm] = useState(false)
  const all = ambulances.data ?? noAmbulances
  const list = usePagedFilter<Ambulance, AmbulanceStatus>({ items: all, matches, statusOf, pageSize: PAGE_SIZE })
  const removal = useRemoval<Ambulance>({
    remove: useRemoveAmbulance(),
    question: 'Are you sure you want to remove this ambulance from the system?',
    confirmLabel: 'Remove Ambulance',
    removed: S.ambulanceRemoved,
    failed: S.removeAmbulanceFailed,
    onFlash: setFlash,
  })
  const count = (s: AmbulanceStatus) => all.filter((a) => a.status === s).length
  const onAdded = () => {
    setFlash({ tone: 'success', text: S.ambulanceAdded })
    setShowForm(false)
  }

  const toggle = (a: Ambulance) =>
    setStatus.mutate(
      { ambulanceId: a.id, status: toggledStatus(a.status) },
      {
        onSuccess: () => setFlash({ tone: 'success', text: S.statusChanged }),
        onError: (err) => setFlash({ tone: 'error', text: messageOf(err, S.statusChangeFailed) }),
      },
    )

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Manage Ambulances"
        action={<AddFormToggle open={showForm} label="Add Ambulance" onToggle={() => setShowForm((s) => !s)} />}
      />
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      <AddAmbulanceForm open={showForm} onAdded={onAdded} />
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
          <EmptyState title="No Ambulances Found">
            <p className="text-slate-600">{list.filtering ? 'No ambulances match your search criteria.' : 'No ambulances have been added yet.'}</p>
            {!list.filtering && <button type="button" className="btn-primary" onClick={() => setShowForm(true)}>Add First Ambulance</button>}
          </EmptyState>
        }
      >
        <p className="text-sm text-slate-600">Showing {list.start + 1}-{list.start + list.shown.length} of {list.filtered.length} ambulances</p>
        <AmbulanceGroups ambulances={list.shown} busy={setStatus.isPending} onToggle={toggle} onRemove={removal.ask} />
        <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
      </QueryResult>
      {removal.dialog}
    </div>
  )
}
