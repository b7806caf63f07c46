import { describe, expect, it } from 'vitest'
import { crewStep, crewStepLabel } from './steps'

// The moves themselves are the server's (trip::allowed); these only read them.
describe("the crew's step", () => {
  it("takes the crew's step from the moves, and names it", () => {
    expect(crewStep(['EN_ROUTE'])).toBe('EN_ROUTE')
    expect(crewStep(['COMPLETED'])).toBe('COMPLETED')
    expect(crewStep([])).toBeNull()
    // After AT_HOSPITAL both are offered: the handover first, whatever the server's order.
    expect(crewStep(['COMPLETED', 'HANDED_OVER'])).toBe('HANDED_OVER')
    expect(crewStepLabel('HANDED_OVER')).toBe('Handover done')
    expect(crewStepLabel('EN_ROUTE')).toBe('Accept job')
    expect(crewStepLabel('TO_HOSPITAL')).toBe('Patient on board: go to hospital')
    expect(crewStepLabel('COMPLETED')).toBe('Complete job')
    // Every stage the crew may ask for, in the trip's order, then COMPLETED.
    expect(crewStep(['COMPLETED', 'TO_HOSPITAL'])).toBe('TO_HOSPITAL')
  })
})
