import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
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
// Hindi or Punjabi first: the first screen waits for its catalogue (precached, a few kB),
// so it never flashes English. A failed load leaves English.
void applyLanguage(initialLanguage())
  .catch(() => undefined)
  .finally(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <AppProviders persister={persister}>
          <App />
        </AppProviders>
      </StrictMode>,
    ),
  )
