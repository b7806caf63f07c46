// The emergency number every call button and message uses (docs/decisions/0018-settings-
// without-a-deploy.md), in three layers so that a call button never waits for the network:
// the number the app was built with (VITE_EMERGENCY_NUMBER), then the last number the
// server's setting gave this device (kept in localStorage), then the setting itself, asked
// once the app has opened (app/emergencyNumber.ts).
// No React here: the catalogues (chunks of their own) read it, and React stays in the entry.
import { NUMBER_KEY, emergencyNumberOf, isEmergencyNumber } from './emergencyNumber'

function kept(): string | null {
  try {
    const value = localStorage.getItem(NUMBER_KEY)
    return isEmergencyNumber(value) ? value : null
  } catch {
    // No storage (the service worker, private mode with storage off).
    return null
  }
}

let current: string | undefined
const listeners = new Set<() => void>()

/** The number to dial now: the last one this device was told, else the built one. */
export function emergencyNumber(): string {
  current ??= kept() ?? emergencyNumberOf(import.meta.env.VITE_EMERGENCY_NUMBER)
  return current
}

/**
 * The server's setting: kept on this device and shown at once by whoever uses
 * useEmergencyNumber() (lib/useEmergencyNumber.ts; every other text shows it at its next
 * render). Anything but 2 to 6 digits is ignored.
 */
export function setEmergencyNumber(next: unknown): void {
  if (!isEmergencyNumber(next)) return
  try {
    localStorage.setItem(NUMBER_KEY, next)
  } catch {
    // Kept for this visit only.
  }
  if (next === emergencyNumber()) return
  current = next
  listeners.forEach((l) => l())
}

/** Calls `listener` when the number changes (useEmergencyNumber); returns the unsubscribe. */
export const onEmergencyNumberChange = (listener: () => void) => {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}
