import { HospitalsToCall } from '@/components/HospitalsToCall'
import { S } from '@/strings'
import type { NearestHospital } from '@/lib/types'

/** The 409 "No ambulance is available near you": the 3 nearest hospitals to call (the emergency call button is just above). */
export function NoAmbulance({ message, hospitals, onRetry }: { message: string; hospitals: NearestHospital[]; onRetry: () => void }) {
  return (
    <section aria-labelledby="no-ambulance" className="card space-y-4 border-red-200 p-5">
      <div role="alert">
        <h2 id="no-ambulance" className="text-lg font-bold text-red-800">{message}</h2>
        <p className="text-slate-700">{hospitals.length > 0 ? S.emergency.noAmbulanceNext : S.emergency.noHospitals}</p>
      </div>
      {hospitals.length > 0 && (
        <HospitalsToCall
          hospitals={hospitals.slice(0, 3).map((h) => ({ key: `h${h.id}`, name: h.name, address: h.address, contactInfo: h.contactInfo ?? null, distance: h.distance }))}
        />
      )}
      <button type="button" className="btn-secondary" onClick={onRetry}>{S.emergency.tryAgain}</button>
    </section>
  )
}
