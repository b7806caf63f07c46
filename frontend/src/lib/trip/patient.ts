import type { PatientDetails } from '@/lib/types'
import { S } from '@/strings'

/**
 * How a booking's patient reads where space is short: the name, else a word saying it
 * is not known (a one-tap emergency before its details arrive), and the known facts.
 */
export function patientLine(patient: PatientDetails | null | undefined): { name: string; facts: string | null; known: boolean } {
  const facts = [patient?.age != null ? String(patient.age) : null, patient?.gender ?? null].filter((f) => f !== null)
  const known = Boolean(patient && (patient.name || patient.condition || facts.length > 0))
  return { name: patient?.name || S.patientNotGiven, facts: facts.length > 0 ? facts.join(' · ') : null, known }
}
