import { describe, expect, it } from 'vitest'
import { patientLine } from './patient'

describe('patientLine', () => {
  it('reads a form booking’s patient whole', () => {
    expect(patientLine({ name: 'Asha Rani', age: 0, gender: 'Female', condition: 'Chest pain' })).toEqual({ name: 'Asha Rani', facts: '0 · Female', known: true })
  })

  it('shows only what a one-tap emergency knows so far, and says when it knows nothing', () => {
    expect(patientLine({ name: null, age: 64, gender: null, condition: null })).toEqual({ name: 'Patient not named yet', facts: '64', known: true })
    expect(patientLine({ name: null, age: null, gender: null, condition: 'Unconscious' })).toMatchObject({ facts: null, known: true })
    expect(patientLine({ name: null, age: null, gender: null, condition: null })).toEqual({ name: 'Patient not named yet', facts: null, known: false })
    expect(patientLine(undefined)).toMatchObject({ known: false })
  })
})
