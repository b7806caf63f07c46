import { useMemo, useState } from 'react'
import { CountCards } from '@/components/CountCards'
import { Alert, EmptyState } from '@/components/Feedback'
import { ListFilters } from '@/components/ListFilters'
import { Pagination } from '@/components/Pagination'
import { QueryResult } from '@/components/QueryResult'
import { bookingAmbulance, bookingHospital, bookingStatuses, bookingStatusLabel } from '@/lib/trip/status'
import type { Booking, BookingStatus } from '@/lib/types'
import { useFlash } from '@/lib/useFlash'
import { usePagedFilter } from '@/lib/usePagedFilter'
import { S } from '@/strings'
import { useAdminBookings, useSetBookingStatus } from '../api/bookings'
import { AdminPageHeader } from '../components/AdminPageHeader'
import { BookingDetailsDialog } from '../components/BookingDetailsDialog'
import { BookingsTable } from '../components/BookingsTable'

/** The search looks at the id ('#14' or '14', whole), the user's email, the hospital and the ambulance. */
const matches = (b: Booking, q: string) => {
  const query = q.replace(/^#/, '')
  return (
    !query ||
    String(b.id) === query ||
    (b.userEmail ?? '').toLowerCase().includes(query) ||
    bookingHospital(b).toLowerCase().includes(query) ||
    bookingAmbulance(b).toLowerCase().includes(query)
  )
}
const statusOf = (b: Booking) => b.bookingStatus
const statusOptions = bookingStatuses.map((s) => ({ value: s, label: bookingStatusLabel[s] }))

export default function AdminBookingsPage() {
  // Pages come from the server; the counts, search and filter apply to the page shown.
  const [page, setPage] = useState(1)
  const bookings = useAdminBookings(page - 1)
  const setStatus = useSetBookingStatus()
  const [flash, , outcome] = useFlash(2500)
  const [viewing, setViewing] = useState<Booking | null>(null)
  const content = useMemo(() => bookings.data?.content ?? [], [bookings.data])
  const list = usePagedFilter<Booking, BookingStatus>({ items: content, matches, statusOf })
  const count = (s: BookingStatus) => content.filter((b) => b.bookingStatus === s).length
  const totalPages = bookings.data?.totalPages ?? 0

  const change = (b: Booking, status: BookingStatus) =>
    setStatus.mutate({ bookingId: b.id, status }, outcome(S.bookingStatusUpdated, S.bookingStatusFailed))

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title={S.adminBookings.title}
        subtitle={
bookings.data && S.adminBookings.subtitle(bookings.data.totalElements)
        }
        action={
          <button type="button" className="btn-secondary" onClick={() => void bookings.refetch()} disabled={bookings.isFetching}>
            {bookings.isFetching && !bookings.isPending ? S.homePage.refreshing : S.homePage.refresh}
          </button>
        }
      />
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      <CountCards
        label={S.adminBookings.countsLabel}
        counts={[
          { label: S.adminBookings.total, value: bookings.data && content.length, style: 'text-slate-900' },
          { label: S.bookingStatus.ACTIVE, value: bookings.data && count('ACTIVE'), style: 'text-blue-700' },
          { label: S.bookingStatus.COMPLETED, value: bookings.data && count('COMPLETED'), style: 'text-green-700' },
          { label: S.bookingStatus.CANCELLED, value: bookings.data && count('CANCELLED'), style: 'text-red-700' },
        ]}
      />
      <ListFilters
        list={list}
        search={{ id: 'booking-search', label: S.adminBookings.search, placeholder: S.adminBookings.searchPlaceholder, className: 'sm:max-w-xs', type: 'search' }}
        status={{ id: 'booking-filter', options: statusOptions }}
      />
      <QueryResult
        query={bookings}
        loadingLabel={S.adminBookings.loading}
        errorMessage={S.bookingsFailed}
        isEmpty={list.shown.length === 0}
        empty={<EmptyState title={S.adminBookings.emptyTitle} text={list.filtering ? S.adminBookings.noMatch : S.adminBookings.none} />}
      >
        <BookingsTable
          caption={S.adminBookings.caption(page, Math.max(totalPages, 1))}
          bookings={list.shown}
          statusBusy={setStatus.isPending}
          onStatus={change}
          onView={setViewing}
        />
      </QueryResult>
      <Pagination page={page} totalPages={totalPages} onPage={setPage} />
      {viewing && <BookingDetailsDialog booking={viewing} onClose={() => setViewing(null)} />}
    </div>
  )
}
