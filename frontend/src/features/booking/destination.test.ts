import { describe, expect, it } from 'vitest'
import { forMap, goesElsewhere } from './destination'

const trip = (destinationHospitalName: string) => ({
  hospital: { name: 'Lotus Health Clinic', latitude: 30.6, longitude: 74.3 },
  destinationHospitalName,
})

describe("the trip's destination on the requester's and family's pages", () => {
  it('the ambulance’s own hospital: drawn as it is', () => {
    const t = trip('Lotus Health Clinic')
    expect(goesElsewhere(t)).toBe(false)
    expect(forMap(t)).toBe(t)
  })

  it('another hospital: the ambulance’s is not drawn as the destination', () => {
    const t = trip('Guru Nanak Medical Centre')
    expect(goesElsewhere(t)).toBe(true)
    expect(forMap(t).hospital).toEqual({ name: 'Guru Nanak Medical Centre', latitude: null, longitude: null })
  })
})
