/**
 * The emergency number, read when a text is (the catalogues' getters): 911 unless the build
 * says otherwise (VITE_EMERGENCY_NUMBER: 112, 108...) or the server's setting reached this
 * device (docs/decisions/0018-settings-without-a-deploy.md); the same in every language.
 */
export { emergencyNumber as emergency } from '@/lib/liveEmergencyNumber'
