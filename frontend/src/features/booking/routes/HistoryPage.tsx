import { useState } from 'react'
import { Link } from 'react-router'
import { CountCards } from '@/components/CountCards'
import { Alert, EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { Icon } from '@/components/Icon'
import { PageHeader } from '@/components/PageHeader'
import { useSession } from '@/lib/session'
import type { Booking } from '@/lib/types'
import { useFlash } from '@/lib/useFlash'
import { S } from '@/strings'
import { useCancelBooking, useHistory } from '../api/bookings'
import { patientLine } from '@/lib/trip/patient'
import { CancelBookingDialog } from '../components/CancelBookingDialog'
import { HistoryTable } from '../components/HistoryTable'
import { isOpen } from '@/lib/trip/status'

export default function HistoryPage() {
  const session = useSession()
  if (!session) return <Alert tone="warning">{S.loginToBook}</Alert>
  return <History userId={session.user.id} />
}

function History({ userId }: { userId: number }) {
  const history = useHistory(userId)
  const cancel = useCancelBooking()
  const [flash, , outcome] = useFlash(2500)
  const [cancelling, setCancelling] = useState<Booking | null>(null)

  const header = (
    <PageHeader
      title={S.homePage.historyTitle}
      subtitle={S.historyPage.subtitle}
      action={
        <Link to="/booking" className="btn-primary">
          <Icon name="ambulance" /> {S.nav.book}
        </Link>
      }
    />
  )

  if (history.isPending) return <div className="space-y-6">{header}<Spinner label={S.historyPage.loading} /></div>
  if (history.isError) {
    return (
      <div className="space-y-6">
        {header}
        <ErrorState message={S.historyFailed} error={history.error} onRetry={() => history.refetch()} />
      </div>
    )
  }

  const bookings = history.data
  const count = (status: string) => bookings.filter((b) => b.bookingStatus === status).length
  const live = bookings.some((b) => isOpen(b.bookingStatus))
  const cards = [
    { label: S.adminDashboard.totalBookings, value: bookings.length, style: 'text-slate-900' },
    { label: S.bookingStatus.ACTIVE, value: count('ACTIVE'), style: 'text-blue-700' },
    { label: S.bookingStatus.COMPLETED, value: count('COMPLETED'), style: 'text-green-700' },
    { label: S.bookingStatus.CANCELLED, value: count('CANCELLED'), style: 'text-red-700' },
  ]

  return (
    <div className="space-y-6">
      {header}
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      {bookings.length === 0 ? (
        <EmptyState title={S.historyPage.emptyTitle} text={S.historyPage.emptyText}>
          <Link to="/booking" className="btn-primary">{S.historyPage.bookFirst}</Link>
        </EmptyState>
      ) : (
        <>
          <CountCards label={S.historyPage.totals} counts={cards} />
          {live && (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <span className="h-2 w-2 animate-pulse rounded-full bg-green-500" aria-hidden="true" />
              {S.historyPage.liveNote}
            </p>
          )}
          <HistoryTable bookings={bookings} onCancel={setCancelling} />
        </>
      )}
      {cancelling && (
        <CancelBookingDialog
          bookingId={cancelling.id}
          title={S.historyPage.cancelTitle}
          question={S.historyPage.cancelQuestion(cancelling.ambulanceNumber, patientLine(cancelling.patient).name)}
          cancel={cancel}
          outcome={outcome}
          onClose={() => setCancelling(null)}
        />
      )}
    </div>
  )
}
