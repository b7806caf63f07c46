import { UseLocationButton } from '@/components/UseLocationButton'
import { parseCoordinate } from '@/lib/coordinates'
import type { AddHospital } from '@/lib/types'
import { S } from '@/strings'
import { useAddHospital } from '../api/admin'
import { AddForm, AddSubmit, AddTextField, useAddForm } from './AddForm'

const empty = { name: '', address: '', latitude: '', longitude: '', contactInfo: '' }

// Read while rendering, so that the labels are in the chosen language.
const fields = () =>
  [
    ['name', S.adminHospitals.name, 'sm:col-span-2'],
    ['address', S.adminHospitals.address, 'sm:col-span-2'],
    ['latitude', S.profile.latitude, ''],
    ['longitude', S.profile.longitude, ''],
    ['contactInfo', S.adminAmbulances.contactOptional, 'sm:col-span-2'],
  ] as const

/** Name, address and numeric coordinates are required; the contact is left out when blank. */
function toBody(form: typeof empty): AddHospital | null {
  const latitude = parseCoordinate(form.latitude)
  const longitude = parseCoordinate(form.longitude)
  if (!form.name.trim() || !form.address.trim() || latitude === null || longitude === null) return null
  return { name: form.name.trim(), address: form.address.trim(), latitude, longitude, contactInfo: form.contactInfo.trim() || undefined }
}

/**
 * The add-hospital form. Shown while `open`; it stays mounted when closed, so what was
 * typed is still there when it opens again. Emptied after a hospital is added.
 */
export function AddHospitalForm({ open, onAdded }: { open: boolean; onAdded: () => void }) {
  const state = useAddForm({ empty, toBody, add: useAddHospital(), failed: S.addHospitalFailed, onAdded })
  const { set } = state
  if (!open) return null

  return (
    <AddForm state={state} name={S.adminHospitals.formName}>
      {fields().map(([key, label, span]) => (
        <AddTextField key={key} state={state} field={key} id={`h-${key}`} label={label} className={span} />
      ))}
      <div className="sm:col-span-2 flex flex-wrap items-start gap-3">
        <UseLocationButton onLocated={(c) => set({ latitude: c.latitude.toFixed(6), longitude: c.longitude.toFixed(6) })} />
        <AddSubmit state={state} label={S.adminHospitals.add} />
      </div>
    </AddForm>
  )
}
