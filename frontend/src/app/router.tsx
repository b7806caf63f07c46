import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { createBrowserRouter } from 'react-router'
import { Spinner } from '@/components/Feedback'
import { HomePage } from '@/features/home/routes/HomePage'
// The emergency path (home → hold → the trip's page) is in the first load: no chunk to
// wait for on a bad connection but the map's (scripts/bundle-budget.mjs checks it).
import EmergencyPage from '@/features/emergency/routes/EmergencyPage'
import TrackBookingPage from '@/features/booking/routes/TrackBookingPage'
import { LoginPage } from '@/features/auth/routes/LoginPage'
import { RegisterPage } from '@/features/auth/routes/RegisterPage'
import { RequireAdmin, RequireAuth, RequireCrew, RequireHospital, SendCrewHome } from './guards'
import { Layout } from './Layout'
import { NotFoundPage } from './NotFoundPage'

// Screens behind a sign-in are split out, so the first load stays small.
function page(load: () => Promise<{ default: ComponentType }>): ReactNode {
  const Page = lazy(load)
  return (
    <Suspense fallback={<Spinner />}>
      <Page />
    </Suspense>
  )
}

const about = page(() => import('@/features/about/routes/AboutPage'))
const privacy = page(() => import('@/features/privacy/routes/PrivacyPage'))
const profile = page(() => import('@/features/profile/routes/ProfilePage'))
const history = page(() => import('@/features/booking/routes/HistoryPage'))
const booking = page(() => import('@/features/booking/routes/BookAmbulancePage'))
const nearest = page(() => import('@/features/hospitals/routes/NearestHospitalsPage'))
const hospitalAmbulances = page(() => import('@/features/booking/routes/HospitalAmbulancesPage'))
const adminDashboard = page(() => import('@/features/admin/routes/AdminDashboardPage'))
const adminHospitals = page(() => import('@/features/admin/routes/AdminHospitalsPage'))
const adminAmbulances = page(() => import('@/features/admin/routes/AdminAmbulancesPage'))
const adminBookings = page(() => import('@/features/admin/routes/AdminBookingsPage'))
const adminLive = page(() => import('@/features/admin/routes/AdminLivePage'))
const adminCrew = page(() => import('@/features/admin/routes/AdminCrewPage'))
const adminSettings = page(() => import('@/features/admin/routes/AdminSettingsPage'))
const adminAudit = page(() => import('@/features/admin/routes/AdminAuditPage'))
const reports = page(() => import('@/features/reports/routes/ReportsPage'))
const crew = page(() => import('@/features/crew/routes/CrewPage'))
const incoming = page(() => import('@/features/incoming/routes/IncomingPage'))
const sharedTrip = page(() => import('@/features/booking/routes/SharedTrackingPage'))

const auth = (node: ReactNode) => <RequireAuth>{node}</RequireAuth>
const admin = (node: ReactNode) => <RequireAdmin>{node}</RequireAdmin>
const crewOnly = (node: ReactNode) => <RequireCrew>{node}</RequireCrew>
const hospitalOnly = (node: ReactNode) => <RequireHospital>{node}</RequireHospital>

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: '/', element: <SendCrewHome><HomePage /></SendCrewHome> },
      { path: '/about', element: about },
      // What is kept, why, how long, and how to take or delete it: public (decision 0022).
      { path: '/privacy', element: privacy },
      { path: '/login', element: <LoginPage /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/profile', element: <RequireAuth crewToo>{profile}</RequireAuth> },
      { path: '/history', element: auth(history) },
      { path: '/hospitals/nearest', element: auth(nearest) },
      { path: '/hospitals/:id/ambulances', element: auth(hospitalAmbulances) },
      { path: '/book-ambulance', element: auth(booking) },
      // Links across the spec point here; it is the same booking form.
      { path: '/booking', element: auth(booking) },
      // The requester's and admins' view of one booking (the server answers 403 to others).
      { path: '/bookings/:id', element: auth(<TrackBookingPage />) },
      { path: '/emergency', element: auth(<EmergencyPage />) },
      { path: '/admin', element: admin(adminDashboard) },
      { path: '/admin/hospitals', element: admin(adminHospitals) },
      { path: '/admin/ambulances', element: admin(adminAmbulances) },
      { path: '/admin/bookings', element: admin(adminBookings) },
      { path: '/admin/live', element: admin(adminLive) },
      { path: '/admin/crew', element: admin(adminCrew) },
      { path: '/admin/settings', element: admin(adminSettings) },
      { path: '/admin/audit', element: admin(adminAudit) },
      { path: '/admin/reports', element: admin(reports) },
      { path: '/crew', element: crewOnly(crew) },
      // The receiving hospital's incoming board, for its staff (HOSPITAL).
      { path: '/hospital', element: hospitalOnly(incoming) },
      // A family's view of a trip, by the link its requester shared: public.
      { path: '/t/:token', element: sharedTrip },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
])
