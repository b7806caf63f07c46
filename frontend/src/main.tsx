import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { AppProviders } from '@/app/providers'
import { createTripPersister } from '@/app/persist'
import { router } from '@/app/router'
import './index.css'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders persister={createTripPersister()}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
)
