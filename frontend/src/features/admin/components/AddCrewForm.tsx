import type { Ambulance, NewCrew } from '@/lib/types'
import { S } from '@/strings'
import { useCreateCrew } from '../api/crew'
import { AddForm, AddSubmit, AddTextField, useAddForm } from './AddForm'

const empty = { username: '', email: '', password: '', phoneNumber: '', ambulanceId: '' }

/** Every field is required; the server checks them as it does a registration's (and names the field). */
const toBody = (form: typeof empty): NewCrew | null => {
  const username = form.username.trim()
  const email = form.email.trim()
  const phoneNumber = form.phoneNumber.trim()
  if (!username || !email || !form.password || !phoneNumber || !form.ambulanceId) return null
  return { username, email, password: form.password, phoneNumber, ambulanceId: Number(form.ambulanceId) }
}

/** The add-crew form: username, email, password, phone and the ambulance they work on. */
export function AddCrewForm({ open, ambulances, onAdded }: { open: boolean; ambulances: Ambulance[]; onAdded: () => void }) {
  const state = useAddForm({ empty, toBody, add: useCreateCrew(), failed: S.crewAdmin.addFailed, onAdded })
  const { form, set } = state
  if (!open) return null
  return (
    <AddForm state={state} name={S.crewAdmin.formName}>
      <AddTextField state={state} field="username" id="c-username" label={S.crewAdmin.username} autoComplete="off" />
      <AddTextField state={state} field="email" id="c-email" label={S.crewAdmin.email} type="email" autoComplete="off" />
      <AddTextField state={state} field="password" id="c-password" label={S.crewAdmin.password} type="password" autoComplete="new-password" />
      <AddTextField state={state} field="phoneNumber" id="c-phone" label={S.crewAdmin.phone} type="tel" autoComplete="off" />
      <div className="sm:col-span-2">
        <label htmlFor="c-ambulance" className="label">{S.crewAdmin.ambulance}</label>
        <AmbulanceOptions id="c-ambulance" ambulances={ambulances} value={form.ambulanceId} onChange={(ambulanceId) => set({ ambulanceId })} />
      </div>
      <div className="sm:col-span-2">
        <AddSubmit state={state} label={S.crewAdmin.add} />
      </div>
    </AddForm>
  )
}

/** A select of the ambulances, by number and hospital. */
export function AmbulanceOptions({ id, ambulances, value, onChange }: { id: string; ambulances: Ambulance[]; value: string; onChange: (id: string) => void }) {
  return (
    <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{S.crewAdmin.chooseAmbulance}</option>
      {ambulances.map((a) => (
        <option key={a.id} value={a.id}>
          {a.number}
          {a.hospital?.name ? ` · ${a.hospital.name}` : ''}
        </option>
      ))}
    </select>
  )
}
