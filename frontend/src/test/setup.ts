import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import { emergencyNumberOf } from '@/lib/emergencyNumber'
import { setEmergencyNumber } from '@/lib/liveEmergencyNumber'
import { clearSession } from '@/lib/session'
import { en } from '@/i18n/en'
import { setStrings } from '@/strings'
import { installDialogStandIn, resetDialogs } from './dialog'

installDialogStandIn()
// The app sets its language before the first render (main.tsx); tests start in English.
setStrings(en)
// findBy/waitFor give up after 3 s rather than 1 s: on a busy CI machine a render can take
// longer than a second; a passing test does not wait any longer for it.
configure({ asyncUtilTimeout: 3000 })
// The number the app was built with: a test that changes the live one (the settings screen's)
// must not leave it to the files that share this worker after it (isolate: false).
const BUILT_NUMBER = emergencyNumberOf(import.meta.env.VITE_EMERGENCY_NUMBER)

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  resetDialogs()
  // Through the session module, so its cached copy and notice are reset too.
  clearSession()
  setEmergencyNumber(BUILT_NUMBER)
  localStorage.clear()
})
