import { useAllHospitals } from '@/features/hospitals'
import { ambulanceTypeLabel } from '@/lib/format'
import type { AddAmbulance, AmbulanceType } from '@/lib/types'
import { S } from '@/strings'
import { useAddAmbulance } from '../api/admin'
import { AddForm, AddSubmit, AddTextField, useAddForm } from './AddForm'

const empty = { number: '', status: 'AVAILABLE' as AddAmbulance['status'], hospitalId: '', driverInfo: '', type: 'BLS' as AmbulanceType, contactInfo: '' }

/** Number, hospital and status are required; driver and contact are left out when blank. */
const toBody = (form: typeof empty): AddAmbulance | null =>
  !form.number.trim() || !form.status || !form.hospitalId
    ? null
    : {
        number: form.number.trim(),
        status: form.status,
        hospital: { id: Number(form.hospitalId) },
        driverInfo: form.driverInfo.trim() || undefined,
        type: form.type,
        contactInfo: form.contactInfo.trim() || undefined,
      }

/**
 * The add-ambulance form. Shown while `open`; it stays mounted when closed, so what was
 * typed is still there when it opens again. Emptied after an ambulance is added.
 */
export function AddAmbulanceForm({ open, onAdded }: { open: boolean; onAdded: () => void }) {
  const hospitals = useAllHospitals()
  const state = useAddForm({ empty, toBody, add: useAddAmbulance(), failed: S.addAmbulanceFailed, onAdded })
  const { form, set } = state
  if (!open) return null

  return (
    <AddForm state={state} name={S.adminAmbulances.formName}>
      <AddTextField state={state} field="number" id="a-number" label={S.adminAmbulances.number} />
      <div>
        <label htmlFor="a-hospital" className="label">{S.tracking.hospital}</label>
        <select id="a-hospital" className="input" value={form.hospitalId} onChange={(e) => set({ hospitalId: e.target.value })}>
          <option value="">{S.adminAmbulances.chooseHospital}</option>
          {(hospitals.data ?? []).map((h) => (
            <option key={h.id} value={h.id}>{h.name}</option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="a-status" className="label">{S.adminBookings.statusCol}</label>
        <select id="a-status" className="input" value={form.status} onChange={(e) => set({ status: e.target.value as AddAmbulance['status'] })}>
          <option value="AVAILABLE">{S.ambulanceStatus.AVAILABLE}</option>
          <option value="MAINTENANCE">{S.ambulanceStatus.MAINTENANCE}</option>
        </select>
      </div>
      <div>
        <label htmlFor="a-type" className="label">{S.adminBookings.type}</label>
        <select id="a-type" className="input" value={form.type} onChange={(e) => set({ type: e.target.value as AmbulanceType })}>
          {Object.entries(ambulanceTypeLabel).map(([value, label]) => (
            <option key={value} value={value}>{label}</option>
          ))}
        </select>
      </div>
      <AddTextField state={state} field="driverInfo" id="a-driver" label={S.adminAmbulances.driverOptional} />
      <AddTextField state={state} field="contactInfo" id="a-contact" label={S.adminAmbulances.contactOptional} />
      <div className="sm:col-span-2">
        <AddSubmit state={state} label={S.adminAmbulances.add} />
      </div>
    </AddForm>
  )
}
