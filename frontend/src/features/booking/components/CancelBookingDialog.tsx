import { ConfirmAction } from '@/components/ConfirmDialog'
import type { FlashOutcome } from '@/lib/useFlash'
import { S } from '@/strings'
import type { useCancelBooking } from '../api/bookings'

/**
 * "Cancel this booking?": the question, what cancelling does, and Keep Booking. The
 * screen owns the cancel mutation and its banner, so that the outcome still shows when
 * the dialog was closed while the cancel was on its way.
 */
export function CancelBookingDialog({
  bookingId,
  title,
  question,
  cancel,
  outcome,
  onClose,
}: {
  bookingId: number
  /** The dialog's name, and its confirm button's. */
  title: string
  question: string
  cancel: ReturnType<typeof useCancelBooking>
  outcome: FlashOutcome
  onClose: () => void
}) {
  return (
    <ConfirmAction
      title={title}
      confirmLabel={title}
      busyLabel={S.cancelling}
      cancelLabel={S.keepBooking}
      busy={cancel.isPending}
      onConfirm={() => cancel.mutate(bookingId, { ...outcome(S.bookingCancelled, S.cancelBookingFailed), onSettled: onClose })}
      onCancel={onClose}
    >
      <p>{question}</p>
      <p className="text-sm text-slate-600">{S.tracking.cancelNote}</p>
    </ConfirmAction>
  )
}
