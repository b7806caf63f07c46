import { useState } from 'react'
import { Link } from 'react-router'
import { ConfirmAction } from '@/components/ConfirmDialog'
import { CountCards } from '@/components/CountCards'
import { Alert, EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { Icon } from '@/components/Icon'
import { PageHeader } from '@/components/PageHeader'
import { useSession } from '@/lib/session'
import type { Booking } from '@/lib/types'
import { useFlash } from '@/lib/useFlash'
import { S } from '@/strings'
import { useCancelBooking, useHistory } from '../api/bookings'
import { patientLine } from '../patient'
import { HistoryTable } from '../components/HistoryTable'
import { isOpen } from '../status'

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
      title="Booking History"
      subtitle="Your ambulance bookings, newest first."
      action={
        <Link to="/booking" className="btn-primary">
          <Icon name="ambulance" /> Book Ambulance
        </Link>
      }
    />
  )

  if (history.isPending) return <div className="space-y-6">{header}<Spinner label="Loading your bookings..." /></div>
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
    { label: 'Total Bookings', value: bookings.length, style: 'text-slate-900' },
    { label: 'Active', value: count('ACTIVE'), style: 'text-blue-700' },
    { label: 'Completed', value: count('COMPLETED'), style: 'text-green-700' },
    { label: 'Cancelled', value: count('CANCELLED'), style: 'text-red-700' },
  ]

  const confirmCancel = () => {
    if (!cancelling) return
    cancel.mutate(cancelling.id, {
      ...outcome(S.bookingCancelled, S.cancelBookingFailed),
      onSettled: () => setCancelling(null),
    })
  }

  return (
    <div className="space-y-6">
      {header}
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      {bookings.length === 0 ? (
        <EmptyState title="No bookings yet" text="When you book an ambulance it will appear here with its live status.">
          <Link to="/booking" className="btn-primary">Book your first ambulance</Link>
        </EmptyState>
      ) : (
        <>
          <CountCards label="Booking totals" counts={cards} />
          {live && (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <span className="h-2 w-2 animate-pulse rounded-full bg-green-500" aria-hidden="true" />
              Open bookings update automatically.
            </p>
          )}
          <HistoryTable bookings={bookings} onCancel={setCancelling} />
        </>
      )}
      {cancelling && (
        <ConfirmAction
          title="Cancel Booking"
          confirmLabel="Cancel Booking"
          busyLabel={S.cancelling}
          cancelLabel={S.keepBooking}
          busy={cancel.isPending}
          onConfirm={confirmCancel}
          onCancel={() => setCancelling(null)}
        >
          <p>
            Cancel the booking of ambulance {cancelling.ambulanceNumber} for {patientLine(cancelling.patient).name}?
          </p>
          <p className="text-sm text-slate-600">The ambulance is released for other patients. This cannot be undone.</p>
        </ConfirmAction>
      )}
    </div>
  )
}
