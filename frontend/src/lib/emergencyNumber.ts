// The emergency number's rule: 2 to 6 digits, 911 unless the build says otherwise
// (VITE_EMERGENCY_NUMBER; vite.config.ts imports this file to refuse a bad one before
// building, so it stays plain TypeScript). The number in force is lib/liveEmergencyNumber.ts.

/** The spec's number. */
export const DEFAULT_EMERGENCY_NUMBER = '911'

/** Digits only, 2 to 6 of them: 911, 112, 108, 999, 000, 15, 10177... */
const SHAPE = /^[0-9]{2,6}$/

/** Where this device keeps the last number the server gave it. */
export const NUMBER_KEY = 'ambucare.emergencyNumber'

/** The number to dial: the setting, trimmed, or 911 when unset; a malformed one throws, naming the variable. */
export function emergencyNumberOf(setting: string | undefined): string {
  const value = (setting ?? '').trim()
  if (value === '') return DEFAULT_EMERGENCY_NUMBER
  if (!SHAPE.test(value)) {
    throw new Error(`VITE_EMERGENCY_NUMBER must be 2 to 6 digits (such as 911, 112 or 108), not "${value}"`)
  }
  return value
}

export const isEmergencyNumber = (value: unknown): value is string => typeof value === 'string' && SHAPE.test(value)
