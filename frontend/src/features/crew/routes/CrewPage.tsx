import { useEffect, useRef } from 'react'
import { Alert, ErrorState, Spinner } from '@/components/Feedback'
import { Icon } from '@/components/Icon'
import { StatusBadge } from '@/components/StatusBadge'
import { crewStep, crewStepLabel } from '../steps'
import { ambulanceTypeLabel } from '@/lib/format'
import { ringsWhenLocked } from '@/lib/push/state'
import { usePush } from '@/lib/push/usePush'
import { beep, unlockAudioOnGesture } from '@/lib/sound'
import { useFlash } from '@/lib/useFlash'
import { useWakeLock } from '@/lib/useWakeLock'
import { H } from '@/i18n/hospital'
import { S } from '@/strings'
import { useAdvanceStage, useCrewMe, useSetCrewStatus } from '../api/crew'
import { DeviceAlerts } from '@/components/DeviceAlerts'
import { IdlePanel } from '../components/IdlePanel'
import { DestinationPart, DiversionWarning } from '../components/DestinationPart'
import { JobCard } from '../components/JobCard'
import { SharingIndicator } from '../components/SharingIndicator'
import { useHeartbeat } from '../useHeartbeat'
import { useLocationSharing } from '../useLocationSharing'

/**
 * /crew, for the crew's phone: the job their ambulance holds with one big button for
 * its next stage, or, between jobs, the ambulance's status. The position is shared all
 * along; a new job shows within 5 s (polled every 3 s), with a buzz where phones can.
 * With alerts on (Web Push, decision 0015) a job also rings the phone locked; without them
 * the screen says so, stays awake and beeps for a new job.
 */
export default function CrewPage() {
  const me = useCrewMe()
  const job = me.data?.job ?? null
  const sharing = useLocationSharing(job !== null)
  // Its crew is there to answer (decision 0020), unless the ambulance is out of service.
  useHeartbeat(me.data !== undefined && me.data.ambulance.status !== 'MAINTENANCE')
  const advance = useAdvanceStage()
  const setStatus = useSetCrewStatus()
  const [flash, setFlash, outcome] = useFlash(4000)
  const push = usePush('crew')
  // Nothing rings this phone locked: the open screen must do it, so it stays on and beeps.
  const fallback = !ringsWhenLocked(push.view)
  const awake = useWakeLock(fallback)
  useEffect(() => (fallback ? unlockAudioOnGesture() : undefined), [fallback])
  useBuzzOnNewJob(me.data ? (job?.id ?? null) : undefined, fallback)

  if (me.isPending) return <Spinner label={S.crew.loading} />
  if (me.isError) return <ErrorState message={S.crew.loadFailed} error={me.error} onRetry={() => me.refetch()} />

  const { ambulance, destination, alternative } = me.data
  const changed = (name: string) => setFlash({ tone: 'success', text: H().crew.changed(name) })
  const changeFailed = outcome('', H().crew.changeFailed).onError
  // The server's next step for this crew (the job's `moves`), none once it offers none.
  const step = job && crewStep(job.moves)
  const advanceJob = () => {
    if (!job || !step) return
    advance.mutate(
      { bookingId: job.id, stage: step },
      {
        // The card shows each stage; only the last move, which takes the card away, says so.
        onSuccess: () => step === 'COMPLETED' && setFlash({ tone: 'success', text: S.crew.completed }),
        onError: outcome('', S.crew.stageFailed).onError,
      },
    )
  }

  return (
    <div className="mx-auto max-w-xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-bold">
            <Icon name="ambulance" className="h-7 w-7" /> {S.crew.ambulance(ambulance.number)}
          </h1>
          <p className="text-sm text-slate-600">
            {ambulanceTypeLabel[ambulance.type] ?? ambulance.type}
            {ambulance.hospital?.name ? ` · ${ambulance.hospital.name}` : ''}
          </p>
        </div>
        <StatusBadge status={ambulance.status} />
      </div>
      <SharingIndicator state={sharing.state} lastSentAt={sharing.lastSentAt} />
      <DeviceAlerts push={push} awake={awake} />
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      {/* A screen reader hears a new job arrive (the screen changes by itself). */}
      <p className="sr-only" aria-live="assertive">{job ? S.crew.newJobAnnouncement(job.id) : ''}</p>
      {job && alternative && (
        <DiversionWarning job={job} destination={destination} alternative={alternative} onChanged={changed} onFailed={changeFailed} />
      )}
      {job ? (
        <JobCard
          job={job}
          position={ambulance.position}
          destination={(toHospital) => (
            <DestinationPart job={job} destination={destination} from={ambulance.position ?? job.pickup} primary={toHospital} onChanged={changed} />
          )}
          action={
            step && (
              <button
                type="button"
                className="btn-touch min-h-16 w-full bg-brand-600 text-lg text-white hover:bg-brand-700"
                disabled={advance.isPending}
                onClick={advanceJob}
              >
                {advance.isPending ? S.crew.saving : crewStepLabel(step)}
              </button>
            )
          }
        />
      ) : (
        <IdlePanel
          ambulance={ambulance}
          busy={setStatus.isPending}
          onStatus={(status) => setStatus.mutate(status, outcome(S.crew.statusChanged, S.crew.statusFailed))}
        />
      )}
    </div>
  )
}

/**
 * A short vibration when a job appears (not for the one already there on opening;
 * undefined: not loaded yet), and with `sound` a beep while the screen is shown.
 */
function useBuzzOnNewJob(jobId: number | null | undefined, sound: boolean) {
  const seen = useRef<number | null | undefined>(undefined)
  useEffect(() => {
    if (jobId === undefined) return
    if (seen.current !== undefined && jobId !== null && jobId !== seen.current) {
      navigator.vibrate?.([300, 150, 300])
      if (sound && document.visibilityState === 'visible') beep()
    }
    seen.current = jobId
  }, [jobId, sound])
}
