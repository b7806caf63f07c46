import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/Feedback'
import { useAllHospitals } from '@/features/hospitals'
import { messageOf } from '@/lib/api'
import { ambulanceTypeLabel } from '@/lib/format'
import type { AddAmbulance, AmbulanceType } from '@/lib/types'
import { S } from '@/strings'
import { useAddAmbulance } from '../api/admin'

const emptyForm = { number: '', status: 'AVAILABLE' as AddAmbulance['status'], hospitalId: '', driverInfo: '', type: 'BLS' as AmbulanceType, contactInfo: '' }

/**
 * The add-ambulance form. Shown while `open`; it stays mounted when closed, so what was
 * typed is still there when it opens again. Emptied after an ambulance is added.
 */
export function AddAmbulanceForm({ open, onAdded }: { open: boolean; onAdded: () => void }) {
  const hospitals = useAllHospitals()
  const add = useAddAmbulance()
  const [form, setForm] = useState(emptyForm)
  const [error, setError] = useState<string | null>(null)
  if (!open) return null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!form.number.trim() || !form.status || !form.hospitalId) {
      setError(S.fillRequired)
      return
    }
    setError(null)
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
          setForm(emptyForm)
          onAdded()
        },
        onError: (err) => setError(messageOf(err, S.addAmbulanceFailed)),
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate className="card grid gap-4 p-6 sm:grid-cols-2" aria-label="Add ambulance">
      {error && <div className="sm:col-span-2"><Alert tone="error">{error}</Alert></div>}
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
  )
}
