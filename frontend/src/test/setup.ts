import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'
import { clearSession } from '@/lib/session'
import { installDialogStandIn, resetDialogs } from './dialog'

installDialogStandIn()

afterEach(() => {
  cleanup()
  resetDialogs()
  // Through the session module, so its cached copy and notice are reset too.
  clearSession()
  localStorage.clear()
})
