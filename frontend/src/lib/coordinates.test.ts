import { describe, expect, it } from 'vitest'
import { parseCoordinate, parseCoordinates } from './coordinates'

describe('parseCoordinate', () => {
  it.each([
    ['30', 30],
    ['-33.8688', -33.8688],
    ['+1.5', 1.5],
    ['.5', 0.5],
  ])('%s is %d', (text, value) => expect(parseCoordinate(text)).toBe(value))

  it.each(['', '1e3', '12abc', 'NaN', '1.2.3'])('"%s" is not a coordinate', (text) => {
    expect(parseCoordinate(text)).toBeNull()
  })
})

describe('parseCoordinates', () => {
  it('gives both numbers when both are decimal numbers in range', () => {
    expect(parseCoordinates(' 30.67', '-74.33 ')).toEqual({ latitude: 30.67, longitude: -74.33 })
    expect(parseCoordinates('90', '-180')).toEqual({ latitude: 90, longitude: -180 })
  })

  it('names every coordinate that is not a number', () => {
    expect(parseCoordinates('north', '74')).toEqual({ error: 'Latitude and longitude must be numbers.', fields: ['latitude'] })
    expect(parseCoordinates('x', '')).toEqual({ error: 'Latitude and longitude must be numbers.', fields: ['latitude', 'longitude'] })
  })

  it('names the coordinate out of range', () => {
    expect(parseCoordinates('90.5', '0')).toEqual({ error: 'Latitude must be between -90 and 90.', fields: ['latitude'] })
    expect(parseCoordinates('0', '180.5')).toEqual({ error: 'Longitude must be between -180 and 180.', fields: ['longitude'] })
  })
})
