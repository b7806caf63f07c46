import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/Feedback'
import { UseLocationButton } from '@/components/UseLocationButton'
import { messageOf } from '@/lib/api'
import { parseCoordinate } from '@/lib/coordinates'
import { S } from '@/strings'
import { useAddHospital } from '../api/admin'

const emptyForm = { name: '', address: '', latitude: '', longitude: '', contactInfo: '' }

const fields = [
  ['name', 'Name', 'sm:col-span-2'],
  ['address', 'Address', 'sm:col-span-2'],
  ['latitude', 'Latitude', ''],
  ['longitude', 'Longitude', ''],
  ['contactInfo', 'Contact (optional)', 'sm:col-span-2'],
] as const

/**
 * The add-hospital form. Shown while `open`; it stays mounted when closed, so what was
 * typed is still there when it opens again. Emptied after a hospital is added.
 */
export function AddHospitalForm({ open, onAdded }: { open: boolean; onAdded: () => void }) {
  const add = useAddHospital()
  const [form, setForm] = useState(emptyForm)
  const [error, setError] = useState<string | null>(null)
  if (!open) return null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const latitude = parseCoordinate(form.latitude)
    const longitude = parseCoordinate(form.longitude)
    if (!form.name.trim() || !form.address.trim() || latitude === null || longitude === null) {
      setError(S.fillRequired)
      return
    }
    setError(null)
    add.mutate(
      { name: form.name.trim(), address: form.address.trim(), latitude, longitude, contactInfo: form.contactInfo.trim() || undefined },
      {
        onSuccess: () => {
          setForm(emptyForm)
          onAdded()
        },
        onError: (err) => setError(messageOf(err, S.addHospitalFailed)),
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate className="card grid gap-4 p-6 sm:grid-cols-2" aria-label="Add hospital">
      {error && <div className="sm:col-span-2"><Alert tone="error">{error}</Alert></div>}
      {fields.map(([key, label, span]) => (
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
  )
}
