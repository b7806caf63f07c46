import { PushStep } from '@/components/PushStep'
import { usePush } from '@/lib/push/usePush'
import { S } from '@/strings'

/** The requester's one step to be told, the page closed, when the ambulance is at the pickup. */
export function TripAlerts() {
  const push = usePush('trip')
  return <PushStep push={push} id="trip-push-heading" title={S.push.trip.ask} text={S.push.trip.askText} askLabel={S.push.trip.button} onText={S.push.trip.on} />
}
