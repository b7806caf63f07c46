import { describe, expect, it } from 'vitest'
import { DEFAULT_HEARTBEAT_SECS, reportSeconds } from './reportTimes'

describe('reportSeconds', () => {
  it('is the default when unset or empty, the setting when it is 5 to 100 whole seconds', () => {
    expect(reportSeconds('X', undefined, DEFAULT_HEARTBEAT_SECS)).toBe(100)
    expect(reportSeconds('X', '  ', 60)).toBe(60)
    expect(reportSeconds('X', '5', 60)).toBe(5)
    expect(reportSeconds('X', ' 20 ', 60)).toBe(20)
    expect(reportSeconds('X', '100', 60)).toBe(100)
  })

  it('refuses anything else, naming the variable', () => {
    for (const bad of ['4', '101', '0', '-5', '7.5', '20s', 'soon']) {
      expect(() => reportSeconds('VITE_CREW_HEARTBEAT_SECS', bad, 100)).toThrow(`VITE_CREW_HEARTBEAT_SECS must be a whole number of seconds from 5 to 100, not "${bad}"`)
    }
  })
})
