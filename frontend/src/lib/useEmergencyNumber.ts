import { useSyncExternalStore } from 'react'
import { emergencyNumber, onEmergencyNumberChange } from './liveEmergencyNumber'

/**
 * The emergency number in force (lib/liveEmergencyNumber.ts); the component re-renders in
 * place, never re-mounted (a hold under way on the emergency page goes on), when it changes.
 */
export const useEmergencyNumber = () => useSyncExternalStore(onEmergencyNumberChange, emergencyNumber, emergencyNumber)
