import { useState } from 'react'
import { Alert } from '@/components/Feedback'
import { Dialog } from '@/components/Dialog'
import { BusyButton } from '@/components/BusyButton'
import { messageOf } from '@/lib/api'
import type { Ambulance, Crew } from '@/lib/types'
import { S } from '@/strings'
import { useMoveCrew } from '../api/crew'
import { AmbulanceOptions } from './AddCrewForm'

/** Binds a crew account to another ambulance; says why not when the server refuses. */
export function MoveCrewDialog({ crew, ambulances, onMoved, onClose }: { crew: Crew; ambulances: Ambulance[]; onMoved: () => void; onClose: () => void }) {
  const move = useMoveCrew()
  const [ambulanceId, setAmbulanceId] = useState('')
  const [error, setError] = useState<string | null>(null)
  const others = ambulances.filter((a) => a.id !== crew.ambulanceId)
  return (
    <Dialog title={S.crewAdmin.moveTitle(crew.username)} onClose={onClose}>
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault()
          if (!ambulanceId) {
            setError(S.fillRequired)
            return
          }
          move.mutate(
            { crewId: crew.id, ambulanceId: Number(ambulanceId) },
            { onSuccess: onMoved, onError: (err) => setError(messageOf(err, S.crewAdmin.moveFailed)) },
          )
        }}
      >
        {error && <Alert tone="error">{error}</Alert>}
        <div>
          <label htmlFor="move-ambulance" className="label">{S.crewAdmin.moveTo}</label>
          <AmbulanceOptions id="move-ambulance" ambulances={others} value={ambulanceId} onChange={setAmbulanceId} />
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={onClose}>{S.common.cancel}</button>
          <BusyButton className="btn-primary" busy={move.isPending} busyLabel={S.crewAdmin.moving}>
            {S.crewAdmin.moveConfirm}
          </BusyButton>
        </div>
      </form>
    </Dialog>
  )
}
