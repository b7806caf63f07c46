import { useState } from 'react'
import { Alert } from '@/components/Feedback'
import { BusyButton } from '@/components/BusyButton'
import { Section } from '@/components/Section'
import { messageOf } from '@/lib/api'
import { formatDateTime } from '@/lib/format'
import { S } from '@/strings'
import { useCreateShareLink, useRevokeShareLinks } from '../api/share'
import type { ShareLink } from '@/lib/types'
import { storedShareLink, storeShareLink } from '../shareStore'

type Note = { tone: 'success' | 'error' | 'info'; text: string }

const absolute = (link: ShareLink) => new URL(link.url, window.location.origin).href

/**
 * "Share tracking": makes a link to /t/<token> (the family sees the ambulance, the stage,
 * the ETA and the hospital, nothing else), hands it to the phone's share sheet where
 * there is one, else copies it; shows it to copy by hand; stops every link. `open`:
 * new links only while the booking is open (stopping stays possible after).
 */
export function ShareTracking({ bookingId, ambulanceNumber, open }: { bookingId: number; ambulanceNumber: string; open: boolean }) {
  const [link, setLink] = useState<ShareLink | null>(() => storedShareLink(bookingId))
  const [note, setNote] = useState<Note | null>(null)
  const create = useCreateShareLink(bookingId)
  const revoke = useRevokeShareLinks(bookingId)
  const canShare = typeof navigator.share === 'function'

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url)
      setNote({ tone: 'success', text: S.share.copied })
    } catch {
      setNote({ tone: 'info', text: S.share.copyFailed })
    }
  }
  const deliver = async (url: string) => {
    if (canShare) {
      try {
        await navigator.share({ title: S.share.title(ambulanceNumber), text: S.share.text, url })
        setNote({ tone: 'success', text: S.share.shared })
        return
      } catch (e) {
        // Closed by the person: nothing to say. Refused (no gesture left, say): copy instead.
        if (e instanceof DOMException && e.name === 'AbortError') return
      }
    }
    await copy(url)
  }
  const share = () => {
    setNote(null)
    create.mutate(undefined, {
      onSuccess: (made) => {
        storeShareLink(bookingId, made)
        setLink(made)
        void deliver(absolute(made))
      },
      onError: (e) => setNote({ tone: 'error', text: messageOf(e, S.share.failed) }),
    })
  }
  const stop = () => {
    setNote(null)
    revoke.mutate(undefined, {
      onSuccess: () => {
        storeShareLink(bookingId, null)
        setLink(null)
        setNote({ tone: 'success', text: S.share.revoked })
      },
      onError: (e) => setNote({ tone: 'error', text: messageOf(e, S.share.revokeFailed) }),
    })
  }

  if (!open && !link) return null
  return (
    <Section id="share-heading" title={S.share.heading} intro={S.share.intro} className="card space-y-3 p-5" headingClassName="font-semibold">
      {link ? (
        <>
          <div>
            <label htmlFor="share-link" className="label">{S.share.linkLabel}</label>
            <input id="share-link" className="input" readOnly value={absolute(link)} onFocus={(e) => e.currentTarget.select()} aria-describedby="share-expiry" />
            <p id="share-expiry" className="mt-1 text-xs text-slate-600">{S.share.expires(formatDateTime(link.expiresAt))}</p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-blue" onClick={() => void (canShare ? deliver(absolute(link)) : copy(absolute(link)))}>
              {canShare ? S.share.shareAgain : S.share.copy}
            </button>
            <BusyButton className="btn-secondary text-red-700" busy={revoke.isPending} busyLabel={S.share.revoking} onClick={stop}>
              {S.share.revoke}
            </BusyButton>
          </div>
        </>
      ) : (
        <BusyButton className="btn-blue w-full" busy={create.isPending} busyLabel={S.share.creating} onClick={share}>
          {S.share.create}
        </BusyButton>
      )}
      <div aria-live="polite">{note && <Alert tone={note.tone}>{note.text}</Alert>}</div>
    </Section>
  )
}
