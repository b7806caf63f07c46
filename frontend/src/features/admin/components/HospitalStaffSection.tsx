import { useState } from 'react'
import { Alert } from '@/components/Feedback'
import { useAllHospitals } from '@/features/hospitals'
import { H } from '@/i18n/hospital'
import type { NewHospitalStaff } from '@/lib/types'
import { S } from '@/strings'
import { useCreateHospitalStaff } from '../api/crew'
import { AddForm, AddSubmit, AddTextField, useAddForm } from './AddForm'

const empty = { username: '', email: '', password: '', phoneNumber: '', hospitalId: '' }

/** Every field is required; the server checks them as it does a crew account's (and names the field). */
export const toStaffBody = (form: typeof empty): NewHospitalStaff | null => {
  const username = form.username.trim()
  const email = form.email.trim()
  const phoneNumber = form.phoneNumber.trim()
  if (!username || !email || !form.password || !phoneNumber || !form.hospitalId) return null
  return { username, email, password: form.password, phoneNumber, hospitalId: Number(form.hospitalId) }
}

/**
 * Hospital staff accounts, made here like crew accounts: each signs in to its hospital's
 * incoming board (/hospital). The contract lists none back, so the section says what it
 * made, by name and hospital.
 */
export function HospitalStaffSection() {
  const t = H().staff
  const [open, setOpen] = useState(false)
  const create = useCreateHospitalStaff()
  const hospitals = useAllHospitals()
  const state = useAddForm({ empty, toBody: toStaffBody, add: create, failed: t.addFailed, onAdded: () => setOpen(false) })
  const { form, set } = state
  return (
    <section aria-labelledby="staff-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="staff-heading" className="text-xl font-bold">{t.heading}</h2>
          <p className="text-sm text-slate-600">{t.intro}</p>
        </div>
        <button type="button" className={open ? 'btn-secondary' : 'btn-primary'} aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? S.common.cancel : t.add}
        </button>
      </div>
      {create.data && <Alert tone="success">{t.added(create.data.username, create.data.hospitalName)}</Alert>}
      {open && (
        <AddForm state={state} name={t.formName}>
          <AddTextField state={state} field="username" id="s-username" label={S.crewAdmin.username} autoComplete="off" />
          <AddTextField state={state} field="email" id="s-email" label={S.crewAdmin.email} type="email" autoComplete="off" />
          <AddTextField state={state} field="password" id="s-password" label={S.crewAdmin.password} type="password" autoComplete="new-password" />
          <AddTextField state={state} field="phoneNumber" id="s-phone" label={S.crewAdmin.phone} type="tel" autoComplete="off" />
          <div className="sm:col-span-2">
            <label htmlFor="s-hospital" className="label">{t.hospital}</label>
            <select id="s-hospital" className="input" value={form.hospitalId} onChange={(e) => set({ hospitalId: e.target.value })}>
              <option value="">{t.chooseHospital}</option>
              {(hospitals.data ?? []).map((h) => (
                <option key={h.id} value={h.id}>
                  {h.name}
                </option>
              ))}
            </select>
          </div>
          <div className="sm:col-span-2">
            <AddSubmit state={state} label={t.add} />
          </div>
        </AddForm>
      )}
    </section>
  )
}
