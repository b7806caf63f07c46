import { useMemo, useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { CountCards } from '@/components/CountCards'
import { Dialog } from '@/components/Dialog'
import { Alert, EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { Pagination } from '@/components/Pagination'
import { StatusBadge } from '@/components/StatusBadge'
import { messageOf } from '@/lib/api'
import { ambulanceTypeLabel, formatDateTime } from '@/lib/format'
import type { Booking, BookingStatus } from '@/lib/types'
import { useFlash } from '@/lib/useFlash'
import { S } from '@/strings'
import {
  bookingAmbulance as ambulanceOf,
  bookingHospital as hospitalOf,
  bookingStatuses,
  bookingStatusLabel,
  BookingTypeBadge,
  nextStatuses,
} from '@/features/booking'
import { useAdminBookings, useSetBookingStatus } from '../api/bookings'


/** Search (id, user email, hospital name, ambulance number) and status filter, on one page. */
export function filterBookings(list: Booking[], search: string, status: 'ALL' | BookingStatus): Booking[] {
  const q = search.trim().toLowerCase().replace(/^#/, '')
  return list.filter(
    (b) =>
      (status === 'ALL' || b.bookingStatus === status) &&
      (!q ||
        String(b.id) === q ||
        (b.userEmail ?? '').toLowerCase().includes(q) ||
        hospitalOf(b).toLowerCase().includes(q) ||
        ambulanceOf(b).toLowerCase().includes(q)),
  )
}

/** The spec's inline status dropdown, offering only the moves the server allows. */
export function StatusSelect({
  booking,
  disabled,
  onChange,
}: {
  booking: Booking
  disabled: boolean
  onChange: (status: BookingStatus) => void
}) {
  const next = nextStatuses(booking.bookingStatus)
  if (next.length === 0) return <StatusBadge status={booking.bookingStatus} />
  const tone: Record<string, string> = {
    PENDING: 'border-yellow-300 bg-yellow-50 text-yellow-900',
    ACTIVE: 'border-blue-300 bg-blue-50 text-blue-800',
  }
  return (
    <select
      aria-label={`Status of booking ${booking.id}`}
      className={`rounded-lg border px-2 py-1 text-xs font-semibold ${tone[booking.bookingStatus] ?? tone.PENDING}`}
      value={booking.bookingStatus}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value as BookingStatus)}
    >
      <option value={booking.bookingStatus}>{booking.bookingStatus}</option>
      {next.map((s) => (
        <option key={s} value={s}>{s}</option>
      ))}
    </select>
  )
}

export default function AdminBookingsPage() {
  const [page, setPage] = useState(1)
  const bookings = useAdminBookings(page - 1)
  const setStatus = useSetBookingStatus()
  const [flash, setFlash] = useFlash(2500)
  const [search, setSearch] = useState('')
  const [filter, setFilter] = useState<'ALL' | BookingStatus>('ALL')
  const [viewing, setViewing] = useState<Booking | null>(null)

  const content = useMemo(() => bookings.data?.content ?? [], [bookings.data])
  const shown = useMemo(() => filterBookings(content, search, filter), [content, search, filter])
  const filtering = search.trim() !== '' || filter !== 'ALL'
  const count = (s: BookingStatus) => content.filter((b) => b.bookingStatus === s).length
  const totalPages = bookings.data?.totalPages ?? 0

  const change = (b: Booking, status: BookingStatus) =>
    setStatus.mutate(
      { bookingId: b.id, status },
      {
        onSuccess: () => setFlash({ tone: 'success', text: S.bookingStatusUpdated }),
        onError: (err) => setFlash({ tone: 'error', text: messageOf(err, S.bookingStatusFailed) }),
      },
    )

  return (
    <div className="space-y-6">
      <Link to="/admin" className="btn-ghost -ml-3">← Back to dashboard</Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">All Bookings</h1>
          {bookings.data && (
            <p className="text-sm text-slate-600">
              {bookings.data.totalElements} booking{bookings.data.totalElements === 1 ? '' : 's'} in all, newest first. Counts,
              search and filter apply to this page.
            </p>
          )}
        </div>
        <button type="button" className="btn-secondary" onClick={() => void bookings.refetch()} disabled={bookings.isFetching}>
          {bookings.isFetching && !bookings.isPending ? 'Refreshing...' : 'Refresh'}
        </button>
      </div>
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      <CountCards
        label="Booking counts on this page"
        counts={[
          { label: 'Total', value: bookings.data && content.length, style: 'text-slate-900' },
          { label: 'Active', value: bookings.data && count('ACTIVE'), style: 'text-blue-700' },
          { label: 'Completed', value: bookings.data && count('COMPLETED'), style: 'text-green-700' },
          { label: 'Cancelled', value: bookings.data && count('CANCELLED'), style: 'text-red-700' },
        ]}
      />
      <div className="flex flex-wrap gap-3">
        <label htmlFor="booking-search" className="sr-only">Search bookings</label>
        <input
          id="booking-search"
          type="search"
          className="input sm:max-w-xs"
          placeholder="Search by id, email, hospital or ambulance"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <label htmlFor="booking-filter" className="sr-only">Filter by status</label>
        <select id="booking-filter" className="input max-w-[12rem]" value={filter} onChange={(e) => setFilter(e.target.value as typeof filter)}>
          <option value="ALL">All Status</option>
          {bookingStatuses.map((s) => (
            <option key={s} value={s}>{bookingStatusLabel[s]}</option>
          ))}
        </select>
      </div>
      {bookings.isPending ? (
        <Spinner label="Loading bookings..." />
      ) : bookings.isError ? (
        <ErrorState message={S.bookingsFailed} onRetry={() => bookings.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState title="No Bookings Found">
          <p className="text-slate-600">{filtering ? 'No bookings match your search criteria.' : 'No bookings have been made yet.'}</p>
        </EmptyState>
      ) : (
        <div className="card overflow-hidden">
          <table className="stack-table w-full text-left text-sm">
            <caption className="sr-only">Bookings, page {page} of {Math.max(totalPages, 1)}</caption>
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3">Booking Details</th>
                <th scope="col" className="px-4 py-3">User</th>
                <th scope="col" className="px-4 py-3">Hospital</th>
                <th scope="col" className="px-4 py-3">Ambulance</th>
                <th scope="col" className="px-4 py-3">Booking Time</th>
                <th scope="col" className="px-4 py-3">Status</th>
                <th scope="col" className="px-4 py-3">Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {shown.map((b) => (
                <tr key={b.id} className="align-top">
                  <td data-label="Booking Details" className="px-4 md:py-3">
                    <span>
                      <span className="block font-semibold text-slate-900">#{b.id}</span>
                      <span className="block text-xs text-slate-600">{b.patient?.name}</span>
                      <span className="mt-1 block"><BookingTypeBadge type={b.bookingType} /></span>
                    </span>
                  </td>
                  <td data-label="User" className="px-4 md:py-3">
                    <span className="min-w-0 break-words">
                      <span className="block font-medium">{b.username || `User ${b.userId}`}</span>
                      <span className="block text-xs text-slate-500">{b.userEmail}</span>
                    </span>
                  </td>
                  <td data-label="Hospital" className="px-4 md:py-3">{hospitalOf(b)}</td>
                  <td data-label="Ambulance" className="px-4 md:py-3">
                    <span>
                      <span className="block font-medium">{ambulanceOf(b)}</span>
                      {b.ambulance?.driverInfo && <span className="block text-xs text-slate-500">{b.ambulance.driverInfo}</span>}
                    </span>
                  </td>
                  <td data-label="Booking Time" className="px-4 md:py-3 md:whitespace-nowrap">{formatDateTime(b.bookingTime)}</td>
                  <td data-label="Status" className="px-4 md:py-3">
                    <StatusSelect booking={b} disabled={setStatus.isPending} onChange={(s) => change(b, s)} />
                  </td>
                  <td data-label="Actions" className="px-4 md:py-3">
                    <button type="button" className="btn-secondary px-3 py-1" aria-label={`View booking ${b.id}`} onClick={() => setViewing(b)}>
                      View
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} totalPages={totalPages} onPage={setPage} />
      {viewing && <BookingDetails booking={viewing} onClose={() => setViewing(null)} />}
    </div>
  )
}

function BookingDetails({ booking: b, onClose }: { booking: Booking; onClose: () => void }) {
  const rows: [string, ReactNode][] = [
    ['Status', <StatusBadge key="s" status={b.bookingStatus} />],
    ['Type', <BookingTypeBadge key="t" type={b.bookingType} />],
    ['Booking time', formatDateTime(b.bookingTime)],
    ['User', `${b.username || `User ${b.userId}`}${b.userEmail ? ` (${b.userEmail})` : ''}`],
    ['Hospital', `${hospitalOf(b)}${b.hospital?.address ? `, ${b.hospital.address}` : ''}`],
    ['Ambulance', `${ambulanceOf(b)}${b.ambulance?.type ? ` · ${ambulanceTypeLabel[b.ambulance.type] ?? b.ambulance.type}` : ''}`],
    ['Driver', b.ambulance?.driverInfo || '—'],
    ['Patient', b.patient ? `${b.patient.name}, ${b.patient.age}, ${b.patient.gender}` : '—'],
    ['Condition', b.patient?.condition || '—'],
  ]
  return (
    <Dialog title={`Booking #${b.id}`} onClose={onClose}>
      <dl className="mb-6 grid grid-cols-[7rem_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-500">{k}</dt>
            <dd className="break-words text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <div className="flex justify-end">
        <button type="button" className="btn-secondary" onClick={onClose}>Close</button>
      </div>
    </Dialog>
  )
}
