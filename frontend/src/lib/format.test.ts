import { describe, expect, it } from 'vitest'
import { formatAge, formatEta, formatWait } from './format'
import { directionsUrl, distanceMeters } from './geo'

/** What `format` makes of each value: one test per row, named "<value> <unit> is ...". */
function formats<T>(name: string, format: (value: T) => string, unit: string, cases: [T, string][]) {
  describe(name, () => {
    it.each(cases)(`%s ${unit} is "%s"`, (value, text) => expect(format(value)).toBe(text))
  })
}

formats('formatAge', formatAge, 'ms', [
  [0, '0 s'],
  [-5000, '0 s'],
  [59_999, '59 s'],
  [60_000, '1 min'],
  [3_599_000, '59 min'],
  [3_600_000, '1 h'],
  [3_900_000, '1 h 5 min'],
  [86_400_000, '1 day'],
  [3 * 86_400_000 + 5000, '3 days'],
])

formats('formatEta', formatEta, 'minutes', [
  [null, 'Unknown'],
  [undefined, 'Unknown'],
  [Number.NaN, 'Unknown'],
  [-1, 'Unknown'],
  [0, 'Less than a minute'],
  [0.4, 'Less than a minute'],
  [1, 'About 1 min'],
  [7.4, 'About 7 min'],
  [59.6, 'About 1 h'],
  [80, 'About 1 h 20 min'],
  [120, 'About 2 h'],
])

formats('formatWait', formatWait, 's', [
  [undefined, 'a moment'],
  [1, '1 second'],
  [0.2, '1 second'],
  [30, '30 seconds'],
  [60, '1 minute'],
  [61, '2 minutes'],
  [3600, '1 hour'],
  [5400, '2 hours'],
])

describe('geo', () => {
  it('measures great-circle distances in metres', () => {
    const a = { latitude: 30.67, longitude: 74.33 }
    expect(distanceMeters(a, a)).toBe(0)
    // 0.0001 degree of latitude is about 11.1 m anywhere.
    expect(distanceMeters(a, { ...a, latitude: 30.6701 })).toBeCloseTo(11.12, 1)
    // One degree of longitude at the equator: 111.2 km.
    expect(distanceMeters({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 1 })).toBeCloseTo(111_195, -1)
  })

  it('links turn-by-turn directions to a point or an address', () => {
    expect(directionsUrl({ latitude: 30.7, longitude: 74.31 })).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=30.7%2C74.31&travelmode=driving',
    )
    expect(directionsUrl('City Hospital, 3 Main Road')).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=City%20Hospital%2C%203%20Main%20Road&travelmode=driving',
    )
  })
})
