import { Link } from 'react-router'
import { LiveClock } from '../../../components/LiveClock'

// The full dashboard (live figures, recent bookings) comes with the booking issue;
// the management screens are reachable from here already.
export default function AdminDashboardPage() {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Admin Dashboard</h1>
        <LiveClock className="rounded-md bg-slate-100 px-3 py-1" />
      </div>
      <section aria-label="Quick actions" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Link to="/admin/hospitals" className="card block p-5 hover:border-brand-500"><p className="font-semibold">Manage Hospitals</p><p className="text-sm text-slate-600">Add and remove hospitals</p></Link>
        <Link to="/admin/ambulances" className="card block p-5 hover:border-brand-500"><p className="font-semibold">Manage Ambulances</p><p className="text-sm text-slate-600">Fleet, status and drivers</p></Link>
        <Link to="/admin/bookings" className="card block p-5 hover:border-brand-500"><p className="font-semibold">View All Bookings</p><p className="text-sm text-slate-600">Every booking and its status</p></Link>
        <div className="card p-5 opacity-70"><p className="font-semibold">System Settings</p><p className="text-sm text-slate-600">Coming later</p></div>
      </section>
    </div>
  )
}
