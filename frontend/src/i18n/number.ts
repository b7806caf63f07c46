import { emergencyNumberOf } from '@/lib/emergencyNumber'

/** 911 unless the build says otherwise (VITE_EMERGENCY_NUMBER: 112, 108...); the same in every language. */
export const emergency = emergencyNumberOf(import.meta.env.VITE_EMERGENCY_NUMBER)
