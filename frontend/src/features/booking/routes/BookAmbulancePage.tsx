import { useState, type FormEvent } from 'react'
import { useSearchParams } from 'react-router'
import { Alert } from '@/components/Feedback'
import { PageHeader } from '@/components/PageHeader'
import { useAvailableAmbulances } from '@/features/ambulances'
import { S } from '@/strings'
import { AmbulanceSelect } from '../components/AmbulanceSelect'
import { BookingMessages, SubmitBookingButton } from '../components/BookingFormParts'
import { BookingSummary } from '../components/BookingSummary'
import { HospitalSelect } from '../components/HospitalSelect'
import { PatientFields } from '../components/PatientFields'
import { PickupField } from '../components/PickupField'
import { useBookingForm } from '../useBookingForm'
import { useHospitalChoices } from '../useHospitalChoices'

const PREFIX = 'book'
const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? value : '')

/** /book-ambulance and /booking: a hospital, one of its available ambulances, the patient. */
export default function BookAmbulancePage() {
  const [params] = useSearchParams()
  const choices = useHospitalChoices()
  // A link may preselect the hospital and the ambulance (?hospitalId=&ambulanceId=).
  const [selection, setSelection] = useState(() => ({
    hospitalId: idParam(params.get('hospitalId')),
    ambulanceId: idParam(params.get('ambulanceId')),
  }))
  // An ambulance preselected by the link that has since gone; said once, then cleared.
  const [gone, setGone] = useState(false)

  const available = useAvailableAmbulances(selection.hospitalId ? Number(selection.hospitalId) : null)
  const ambulances = available.data
  const preselectedMissing =
    selection.ambulanceId !== '' && ambulances !== undefined && !ambulances.some((a) => String(a.id) === selection.ambulanceId)
  if (preselectedMissing) {
    // Adjusting state while rendering (not in an effect): React re-renders at once.
    setSelection((s) => ({ ...s, ambulanceId: '' }))
    setGone(true)
  }

  const form = useBookingForm({
    idPrefix: PREFIX,
    onConflict: () => {
      setSelection((s) => ({ ...s, ambulanceId: '' }))
      void available.refetch()
    },
    onBooked: () => setSelection({ hospitalId: '', ambulanceId: '' }),
  })

  const chosenNear = choices.near.find((h) => String(h.id) === selection.hospitalId)
  const chosenHospital = chosenNear ?? choices.rest.find((h) => String(h.id) === selection.hospitalId)

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    form.submit(selection)
  }

  return (
    <div className="mx-auto grid max-w-5xl gap-6 lg:grid-cols-[1fr_18rem]">
      <div className="card p-6 sm:p-8">
        <div className="mb-6">
          <PageHeader title={S.bookingForm.title} subtitle={S.bookingForm.intro} />
        </div>
        <BookingMessages form={form} className="mb-4 space-y-3">
          {gone && !form.error && <Alert tone="warning">{S.ambulanceGone}</Alert>}
        </BookingMessages>
        <form onSubmit={onSubmit} noValidate aria-label={S.bookingForm.formName} className="grid gap-4 sm:grid-cols-2">
          <HospitalSelect
            idPrefix={PREFIX}
            choices={choices}
            value={selection.hospitalId}
            invalid={form.invalid}
            onChange={(hospitalId) => {
              setSelection({ hospitalId, ambulanceId: '' })
              setGone(false)
              form.clearInvalid(['hospitalId', 'ambulanceId'])
            }}
          />
          <AmbulanceSelect
            idPrefix={PREFIX}
            hospitalId={selection.hospitalId}
            available={available}
            value={selection.ambulanceId}
            invalid={form.invalid}
            onChange={(ambulanceId) => {
              setSelection((s) => ({ ...s, ambulanceId }))
              setGone(false)
              form.clearInvalid(['ambulanceId'])
            }}
          />
          <PatientFields {...form.patientFields} />
          <PickupField {...form.pickupField} near={chosenHospital ? [chosenHospital.latitude, chosenHospital.longitude] : undefined} />
          <div className="sm:col-span-2">
            <SubmitBookingButton form={form} wide />
          </div>
        </form>
      </div>
      <BookingSummary
        hospital={chosenHospital}
        distance={chosenNear?.distance}
        ambulance={ambulances?.find((a) => String(a.id) === selection.ambulanceId)}
      />
    </div>
  )
}
