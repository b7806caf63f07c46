// The crew's one next step, named: read from the server's `moves` and the stage table
// (its `button`), never from a list of stage names. Crew screens only, so it stays out
// of the first load.
import { type CrewStep, stageTable, tripStages } from '@/lib/trip/stages'
import type { TripMove, TripStage } from '@/lib/types'
import { S } from '@/strings'

/** What the crew's button says for each step (EN_ROUTE accepts the job): the stage table's, and COMPLETED's. */
export const crewStepLabel = (step: CrewStep): string => S.crewMoves[step === 'COMPLETED' ? 'complete' : stageTable[step].button]

// The stages the crew may ask for (those with a button), in the trip's order, then COMPLETED.
const crewStepOrder: readonly CrewStep[] = [...tripStages.filter((s): s is TripStage & CrewStep => stageTable[s].button !== null), 'COMPLETED']

/** The crew's next step, as the server offers it in the job's `moves`; none when it offers none. */
export function crewStep(moves: readonly TripMove[]): CrewStep | null {
  // In the trip's order: after AT_HOSPITAL the server offers both HANDED_OVER and COMPLETED,
  // and the handover (its time goes to the report) comes first.
  return crewStepOrder.find((step) => moves.includes(step)) ?? null
}
