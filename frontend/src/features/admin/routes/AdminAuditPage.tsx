import { useState, type FormEvent } from 'react'
import { useSearchParams } from 'react-router'
import { EmptyState } from '@/components/Feedback'
import { PageHeader } from '@/components/PageHeader'
import { QueryResult } from '@/components/QueryResult'
import { useSession } from '@/lib/session'
import { useAdminAmbulances } from '../api/admin'
import { type AuditFilter, useAuditTrail } from '../api/audit'
import { AuditTable } from '../components/AuditTable'
import { A } from '../strings'

const FILTERS = ['bookingId', 'ambulanceId', 'adminId'] as const

/** The filter the address names (`?bookingId=&ambulanceId=&adminId=`): links and the back button keep it. */
function filterOf(params: URLSearchParams): AuditFilter {
  const filter: AuditFilter = {}
  for (const name of FILTERS) {
    const value = Number(params.get(name))
    if (Number.isSafeInteger(value) && value > 0) filter[name] = value
  }
  return filter
}

/** /admin/audit: every admin action, newest first, by booking, ambulance or admin (docs/decisions/0023). */
export default function AdminAuditPage() {
  const [params, setParams] = useSearchParams()
  const filter = filterOf(params)
  const trail = useAuditTrail(filter)
  const records = trail.data?.pages.flatMap((p) => p.items) ?? []
  const filtered = Object.keys(filter).length > 0

  return (
    <div className="space-y-6">
      <PageHeader title={A().audit.title} subtitle={A().audit.subtitle} />
      <AuditFilters
        key={params.toString()}
        filter={filter}
        seenAdmins={[...new Map(records.map((r) => [r.by.id, r.by.username])).entries()]}
        onFilter={(next) => {
          const search = new URLSearchParams()
          for (const name of FILTERS) if (next[name]) search.set(name, String(next[name]))
          setParams(search)
        }}
        filtered={filtered}
      />
      <QueryResult
        query={trail}
        loadingLabel={A().audit.loading}
        errorMessage={A().audit.loadFailed}
        isEmpty={records.length === 0 && !trail.hasNextPage}
        empty={<EmptyState title={A().audit.emptyTitle} text={A().audit.emptyText} />}
      >
        <AuditTable records={records} />
        <div className="mt-4 flex justify-center">
          {trail.hasNextPage ? (
            <button type="button" className="btn-secondary" disabled={trail.isFetchingNextPage} onClick={() => void trail.fetchNextPage()}>
              {trail.isFetchingNextPage ? A().audit.loadingMore : A().audit.more}
            </button>
          ) : (
            <p className="text-sm text-slate-600">{A().audit.end}</p>
          )}
        </div>
      </QueryResult>
    </div>
  )
}

/** Booking number, ambulance and admin; Filter applies them, Clear shows everything. */
function AuditFilters({
  filter,
  seenAdmins,
  onFilter,
  filtered,
}: {
  filter: AuditFilter
  seenAdmins: [number, string][]
  onFilter: (filter: AuditFilter) => void
  filtered: boolean
}) {
  const me = useSession()?.user
  const ambulances = useAdminAmbulances().data ?? []
  const [booking, setBooking] = useState(filter.bookingId ? String(filter.bookingId) : '')
  const [ambulance, setAmbulance] = useState(filter.ambulanceId ? String(filter.ambulanceId) : '')
  const [admin, setAdmin] = useState(filter.adminId ? String(filter.adminId) : '')
  const admins = new Map(seenAdmins)
  if (me) admins.set(me.id, A().audit.me(me.username))
  if (filter.adminId && !admins.has(filter.adminId)) admins.set(filter.adminId, `#${filter.adminId}`)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const id = (text: string) => (/^[0-9]+$/.test(text.trim()) && Number(text) > 0 ? Number(text) : undefined)
    onFilter({ bookingId: id(booking), ambulanceId: id(ambulance), adminId: id(admin) })
  }
  return (
    <form onSubmit={submit} aria-label={A().audit.filters} className="card grid gap-4 p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto] lg:items-end">
      <div>
        <label htmlFor="audit-booking" className="label">{A().audit.booking}</label>
        <input id="audit-booking" className="input" inputMode="numeric" value={booking} onChange={(e) => setBooking(e.target.value)} />
      </div>
      <div>
        <label htmlFor="audit-ambulance" className="label">{A().audit.ambulance}</label>
        <select id="audit-ambulance" className="input" value={ambulance} onChange={(e) => setAmbulance(e.target.value)}>
          <option value="">{A().audit.anyAmbulance}</option>
          {ambulances.map((a) => (
            <option key={a.id} value={a.id}>{a.number}</option>
          ))}
          {/* One removed since (or not loaded yet): still named, so the filter shows. */}
          {filter.ambulanceId && !ambulances.some((a) => a.id === filter.ambulanceId) && (
            <option value={filter.ambulanceId}>#{filter.ambulanceId}</option>
          )}
        </select>
      </div>
      <div>
        <label htmlFor="audit-admin" className="label">{A().audit.admin}</label>
        <select id="audit-admin" className="input" value={admin} onChange={(e) => setAdmin(e.target.value)}>
          <option value="">{A().audit.anyAdmin}</option>
          {[...admins.entries()].map(([id, name]) => (
            <option key={id} value={id}>{name}</option>
          ))}
        </select>
      </div>
      <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
        <button type="submit" className="btn-primary">{A().audit.apply}</button>
        {filtered && (
          <button type="button" className="btn-secondary" onClick={() => onFilter({})}>{A().audit.clear}</button>
        )}
      </div>
    </form>
  )
}
