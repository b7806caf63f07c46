import { useMemo, useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { ConfirmRemoval } from '@/components/ConfirmDialog'
import { Alert, EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { Pagination } from '@/components/Pagination'
import { UseLocationButton } from '@/components/UseLocationButton'
import { messageOf } from '@/lib/api'
import { formatCoord } from '@/lib/format'
import type { Hospital } from '@/lib/types'
import { useFlash } from '@/lib/useFlash'
import { S } from '@/strings'
import { parseCoordinate } from '@/lib/coordinates'
import { useAllHospitals } from '@/features/hospitals'
import { useAddHospital, useRemoveHospital } from '../api/admin'

const PAGE_SIZE = 5
const emptyForm = { name: '', address: '', latitude: '', longitude: '', contactInfo: '' }

export default function AdminHospitalsPage() {
  const hospitals = useAllHospitals()
  const add = useAddHospital()
  const remove = useRemoveHospital()
  const [flash, setFlash] = useFlash(3000)
  const [showForm, setShowForm] = useState(false)
  const [form, setForm] = useState(emptyForm)
  const [formError, setFormError] = useState<string | null>(null)
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const [removing, setRemoving] = useState<Hospital | null>(null)

  const filtered = useMemo(() => {
    const q = search.trim().toLowerCase()
    return (hospitals.data ?? []).filter(
      (h) => !q || h.name.toLowerCase().includes(q) || h.address.toLowerCase().includes(q),
    )
  }, [hospitals.data, search])
  const totalPages = Math.ceil(filtered.length / PAGE_SIZE)
  const current = Math.min(page, Math.max(totalPages, 1))
  const shown = filtered.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const latitude = parseCoordinate(form.latitude)
    const longitude = parseCoordinate(form.longitude)
    if (!form.name.trim() || !form.address.trim() || latitude === null || longitude === null) {
      setFormError(S.fillRequired)
      return
    }
    setFormError(null)
    add.mutate(
      { name: form.name.trim(), address: form.address.trim(), latitude, longitude, contactInfo: form.contactInfo.trim() || undefined },
      {
        onSuccess: () => {
          setFlash({ tone: 'success', text: S.hospitalAdded })
          setForm(emptyForm)
          setShowForm(false)
        },
        onError: (err) => setFormError(messageOf(err, S.addHospitalFailed)),
      },
    )
  }

  const confirmRemove = () => {
    if (!removing) return
    remove.mutate(removing.id, {
      onSuccess: () => setFlash({ tone: 'success', text: S.hospitalRemoved }),
      onError: (err) => setFlash({ tone: 'error', text: messageOf(err, S.removeHospitalFailed) }),
      onSettled: () => setRemoving(null),
    })
  }

  return (
    <div className="space-y-6">
      <Link to="/admin" className="btn-ghost -ml-3">← Back to dashboard</Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Manage Hospitals</h1>
        <button type="button" className="btn-primary" aria-expanded={showForm} onClick={() => setShowForm((s) => !s)}>
          {showForm ? 'Close Form' : 'Add Hospital'}
        </button>
      </div>
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      {showForm && (
        <form onSubmit={submit} noValidate className="card grid gap-4 p-6 sm:grid-cols-2" aria-label="Add hospital">
          {formError && <div className="sm:col-span-2"><Alert tone="error">{formError}</Alert></div>}
          {(
            [
              ['name', 'Name', 'sm:col-span-2'],
              ['address', 'Address', 'sm:col-span-2'],
              ['latitude', 'Latitude', ''],
              ['longitude', 'Longitude', ''],
              ['contactInfo', 'Contact (optional)', 'sm:col-span-2'],
            ] as const
          ).map(([key, label, span]) => (
            <div key={key} className={span}>
              <label htmlFor={`h-${key}`} className="label">{label}</label>
              <input id={`h-${key}`} className="input" value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
            </div>
          ))}
          <div className="sm:col-span-2 flex flex-wrap items-start gap-3">
            <UseLocationButton onLocated={(c) => setForm((f) => ({ ...f, latitude: c.latitude.toFixed(6), longitude: c.longitude.toFixed(6) }))} />
            <button type="submit" className="btn-primary" disabled={add.isPending}>
              {add.isPending ? 'Adding...' : 'Add Hospital'}
            </button>
          </div>
        </form>
      )}
      <div>
        <label htmlFor="hospital-search" className="sr-only">Search hospitals</label>
        <input
          id="hospital-search"
          className="input max-w-md"
          placeholder="Search by name or address"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value)
            setPage(1)
          }}
        />
      </div>
      {hospitals.isPending ? (
        <Spinner />
      ) : hospitals.isError ? (
        <ErrorState message={S.hospitalsFailed} onRetry={() => hospitals.refetch()} />
      ) : filtered.length === 0 ? (
        <EmptyState title="No Hospitals Found">
          <p className="text-slate-600">{search ? 'No hospitals match your search.' : 'No hospitals have been added yet.'}</p>
        </EmptyState>
      ) : (
        <>
          <ul className="space-y-3">
            {shown.map((h) => (
              <li key={h.id} className="card flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
                <div>
                  <p className="font-semibold">{h.name}</p>
                  <p className="text-sm text-slate-600">{h.address}</p>
                  <p className="text-xs text-slate-500">
                    {formatCoord(h.latitude)}, {formatCoord(h.longitude)}
                    {h.contactInfo ? ` · ${h.contactInfo}` : ''}
                  </p>
                </div>
                <button type="button" className="btn-secondary text-red-700" onClick={() => setRemoving(h)} aria-label={`Remove ${h.name}`}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <Pagination page={current} totalPages={totalPages} onPage={setPage} />
        </>
      )}
      {removing && (
        <ConfirmRemoval
          question="Are you sure you want to remove this hospital from the system?"
          confirmLabel="Remove Hospital"
          busy={remove.isPending}
          onConfirm={confirmRemove}
          onCancel={() => setRemoving(null)}
        />
      )}
    </div>
  )
}
