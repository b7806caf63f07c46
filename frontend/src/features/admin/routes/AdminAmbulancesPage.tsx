import { useMemo, useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { ConfirmRemoval } from '@/components/ConfirmDialog'
import { CountCards } from '@/components/CountCards'
import { Alert, EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { Pagination } from '@/components/Pagination'
import { StatusBadge } from '@/components/StatusBadge'
import { messageOf } from '@/lib/api'
import { ambulanceTypeLabel } from '@/lib/format'
import type { AddAmbulance, Ambulance, AmbulanceStatus, AmbulanceType } from '@/lib/types'
import { useFlash } from '@/lib/useFlash'
import { S } from '@/strings'
import { useAllHospitals } from '@/features/hospitals'
import { toggledStatus, useAddAmbulance, useAdminAmbulances, useRemoveAmbulance, useSetAmbulanceStatus } from '../api/admin'

const PAGE_SIZE = 5
const emptyForm = { number: '', status: 'AVAILABLE' as AddAmbulance['status'], hospitalId: '', driverInfo: '', type: 'BLS' as AmbulanceType, contactInfo: '' }

export default function AdminAmbulancesPage() {
  const ambulances = useAdminAmbulances()
  const hospitals = useAllHospitals()
  const add = useAddAmbulance()
  const remove = useRemoveAmbulance()
  const setStatus = useSetAmbulanceStatus()
  const [flash, setFlash] = useFlash(3000)
  const [showForm, setShowForm] = useState(false)
  const [form, setForm] = useState(emptyForm)
  const [formError, setFormError] = useState<string | null>(null)
  const [search, setSearch] = useState('')
  const [filter, setFilter] = useState<'ALL' | AmbulanceStatus>('ALL')
  const [page, setPage] = useState(1)
  const [removing, setRemoving] = useState<Ambulance | null>(null)

  const all = useMemo(() => ambulances.data ?? [], [ambulances.data])
  const filtered = useMemo(() => {
    const q = search.trim().toLowerCase()
    return all.filter(
      (a) =>
        (filter === 'ALL' || a.status === filter) &&
        (!q || a.number.toLowerCase().includes(q) || (a.driverInfo ?? '').toLowerCase().includes(q)),
    )
  }, [all, search, filter])
  const totalPages = Math.ceil(filtered.length / PAGE_SIZE)
  const current = Math.min(page, Math.max(totalPages, 1))
  const start = (current - 1) * PAGE_SIZE
  const shown = filtered.slice(start, start + PAGE_SIZE)
  const groups = useMemo(() => {
    const byHospital = new Map<number, { name: string; address: string; items: Ambulance[] }>()
    for (const a of shown) {
      const g = byHospital.get(a.hospitalId) ?? { name: a.hospital?.name ?? S.unknownHospital, address: a.hospital?.address ?? '', items: [] }
      g.items.push(a)
      byHospital.set(a.hospitalId, g)
    }
    return [...byHospital.entries()]
  }, [shown])
  const count = (s: AmbulanceStatus) => all.filter((a) => a.status === s).length
  const filtering = search.trim() !== '' || filter !== 'ALL'

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!form.number.trim() || !form.status || !form.hospitalId) {
      setFormError(S.fillRequired)
      return
    }
    setFormError(null)
    add.mutate(
      {
        number: form.number.trim(),
        status: form.status,
        hospital: { id: Number(form.hospitalId) },
        driverInfo: form.driverInfo.trim() || undefined,
        type: form.type,
        contactInfo: form.contactInfo.trim() || undefined,
      },
      {
        onSuccess: () => {
          setFlash({ tone: 'success', text: S.ambulanceAdded })
          setForm(emptyForm)
          setShowForm(false)
        },
        onError: (err) => setFormError(messageOf(err, S.addAmbulanceFailed)),
      },
    )
  }

  const toggle = (a: Ambulance) =>
    setStatus.mutate(
      { ambulanceId: a.id, status: toggledStatus(a.status) },
      {
        onSuccess: () => setFlash({ tone: 'success', text: S.statusChanged }),
        onError: (err) => setFlash({ tone: 'error', text: messageOf(err, S.statusChangeFailed) }),
      },
    )

  const confirmRemove = () => {
    if (!removing) return
    remove.mutate(removing.id, {
      onSuccess: () => setFlash({ tone: 'success', text: S.ambulanceRemoved }),
      onError: (err) => setFlash({ tone: 'error', text: messageOf(err, S.removeAmbulanceFailed) }),
      onSettled: () => setRemoving(null),
    })
  }

  return (
    <div className="space-y-6">
      <Link to="/admin" className="btn-ghost -ml-3">← Back to dashboard</Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Manage Ambulances</h1>
        <button type="button" className="btn-primary" aria-expanded={showForm} onClick={() => setShowForm((s) => !s)}>
          {showForm ? 'Close Form' : 'Add Ambulance'}
        </button>
      </div>
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      {showForm && (
        <form onSubmit={submit} noValidate className="card grid gap-4 p-6 sm:grid-cols-2" aria-label="Add ambulance">
          {formError && <div className="sm:col-span-2"><Alert tone="error">{formError}</Alert></div>}
          <div>
            <label htmlFor="a-number" className="label">Ambulance number</label>
            <input id="a-number" className="input" value={form.number} onChange={(e) => setForm({ ...form, number: e.target.value })} />
          </div>
          <div>
            <label htmlFor="a-hospital" className="label">Hospital</label>
            <select id="a-hospital" className="input" value={form.hospitalId} onChange={(e) => setForm({ ...form, hospitalId: e.target.value })}>
              <option value="">Select a hospital</option>
              {(hospitals.data ?? []).map((h) => (
                <option key={h.id} value={h.id}>{h.name}</option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="a-status" className="label">Status</label>
            <select id="a-status" className="input" value={form.status} onChange={(e) => setForm({ ...form, status: e.target.value as AddAmbulance['status'] })}>
              <option value="AVAILABLE">Available</option>
              <option value="MAINTENANCE">Maintenance</option>
            </select>
          </div>
          <div>
            <label htmlFor="a-type" className="label">Type</label>
            <select id="a-type" className="input" value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as AmbulanceType })}>
              {Object.entries(ambulanceTypeLabel).map(([value, label]) => (
                <option key={value} value={value}>{label}</option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="a-driver" className="label">Driver information (optional)</label>
            <input id="a-driver" className="input" value={form.driverInfo} onChange={(e) => setForm({ ...form, driverInfo: e.target.value })} />
          </div>
          <div>
            <label htmlFor="a-contact" className="label">Contact (optional)</label>
            <input id="a-contact" className="input" value={form.contactInfo} onChange={(e) => setForm({ ...form, contactInfo: e.target.value })} />
          </div>
          <div className="sm:col-span-2">
            <button type="submit" className="btn-primary" disabled={add.isPending}>{add.isPending ? 'Adding...' : 'Add Ambulance'}</button>
          </div>
        </form>
      )}
      <CountCards
        label="Fleet counts"
        counts={[
          { label: 'Total', value: all.length, style: 'text-slate-900' },
          { label: 'Available', value: count('AVAILABLE'), style: 'text-green-700' },
          { label: 'On Duty', value: count('ON_DUTY'), style: 'text-blue-700' },
          { label: 'Maintenance', value: count('MAINTENANCE'), style: 'text-amber-700' },
        ]}
      />
      <div className="flex flex-wrap gap-3">
        <label htmlFor="amb-search" className="sr-only">Search ambulances</label>
        <input id="amb-search" className="input max-w-xs" placeholder="Search by number or driver" value={search} onChange={(e) => { setSearch(e.target.value); setPage(1) }} />
        <label htmlFor="amb-filter" className="sr-only">Filter by status</label>
        <select id="amb-filter" className="input max-w-[12rem]" value={filter} onChange={(e) => { setFilter(e.target.value as typeof filter); setPage(1) }}>
          <option value="ALL">All Status</option>
          <option value="AVAILABLE">Available</option>
          <option value="ON_DUTY">On Duty</option>
          <option value="MAINTENANCE">Maintenance</option>
        </select>
      </div>
      {ambulances.isPending ? (
        <Spinner />
      ) : ambulances.isError ? (
        <ErrorState message={S.ambulancesFailed} onRetry={() => ambulances.refetch()} />
      ) : filtered.length === 0 ? (
        <EmptyState title="No Ambulances Found">
          <p className="text-slate-600">{filtering ? 'No ambulances match your search criteria.' : 'No ambulances have been added yet.'}</p>
          {!filtering && <button type="button" className="btn-primary" onClick={() => setShowForm(true)}>Add First Ambulance</button>}
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-slate-600">Showing {start + 1}-{start + shown.length} of {filtered.length} ambulances</p>
          {groups.map(([hospitalId, g]) => (
            <section key={hospitalId} aria-label={g.name} className="space-y-3">
              <div>
                <h2 className="font-semibold">{g.name}</h2>
                <p className="text-sm text-slate-600">{g.address}</p>
              </div>
              <ul className="grid gap-3 md:grid-cols-2">
                {g.items.map((a) => (
                  <li key={a.id} className="card space-y-2 p-4">
                    <div className="flex items-center justify-between">
                      <p className="font-semibold">{a.number}</p>
                      <StatusBadge status={a.status} />
                    </div>
                    <p className="text-sm text-slate-600">{ambulanceTypeLabel[a.type] ?? a.type}</p>
                    <p className="text-sm">Driver: {a.driverInfo ?? '—'}</p>
                    <p className="text-sm">Contact: {a.contactInfo ?? '—'}</p>
                    <div className="flex gap-2 pt-1">
                      <button type="button" className="btn-blue" disabled={setStatus.isPending} onClick={() => toggle(a)}>Toggle Status</button>
                      <button type="button" className="btn-secondary text-red-700" aria-label={`Remove ambulance ${a.number}`} onClick={() => setRemoving(a)}>Remove</button>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <Pagination page={current} totalPages={totalPages} onPage={setPage} />
        </>
      )}
      {removing && (
        <ConfirmRemoval
          question="Are you sure you want to remove this ambulance from the system?"
          confirmLabel="Remove Ambulance"
          busy={remove.isPending}
          onConfirm={confirmRemove}
          onCancel={() => setRemoving(null)}
        />
      )}
    </div>
  )
}
