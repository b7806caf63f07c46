import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { followEmergencyNumber } from '@/app/emergencyNumber'
import { AppProviders } from '@/app/providers'
import { createTripPersister } from '@/app/persist'
import { router } from '@/app/router'
import { applyLanguage, initialLanguage, useLanguage } from '@/i18n/language'
import './index.css'

/**
 * The screens read S while rendering, so a new language re-mounts them (keyed by it): the
 * page and the query cache stay, a half-typed form does not (decision 0016).
 */
function App() {
  const language = useLanguage()
  return <RouterProvider key={language} router={router} />
}

const persister = createTripPersister()
// The first screen waits for its language's catalogue (a precached chunk of ~9 kB), so a
// Hindi or Punjabi phone never flashes English; if that chunk fails, English.
void applyLanguage(initialLanguage())
  .catch(() => applyLanguage('en'))
  .finally(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <AppProviders persister={persister}>
          <App />
        </AppProviders>
      </StrictMode>,
    )
    // The control room's number, once the first screen is up (never waited for).
    followEmergencyNumber()
  })
