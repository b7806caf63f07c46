import { useState, type FormEvent } from 'react'
import { H } from '@/i18n/hospital'
import { ApiError, messageOf } from '@/lib/api'
import { formatTime } from '@/lib/format'
import type { Incoming } from '@/lib/types'
import { useEndDiversion, useSetDiversion } from '../api/incoming'
import { hoursFromNow, nextOccurrence, QUICK_HOURS } from '../diversion'

// Read when a button is pressed, never while rendering.
const clock = () => Date.now()

type Said = { tone: 'success' | 'error'; text: string } | null

/**
 * The hospital's diversion: open, with the quick choices (1, 2, 4 h) and a time of
 * one's own; or on diversion until a time, with "End diversion". The server's answer
 * (or refusal, naming `until`) is said under it.
 */
export function DiversionPanel({ hospital }: { hospital: Incoming['hospital'] }) {
  const t = H().diversion
  const setDiversion = useSetDiversion()
  const endDiversion = useEndDiversion()
  const [time, setTime] = useState('')
  const [said, setSaid] = useState<Said>(null)
  const [invalid, setInvalid] = useState(false)
  const busy = setDiversion.isPending || endDiversion.isPending
  const until = hospital.onDiversionUntil

  const divert = (at: Date) => {
    setSaid(null)
    setDiversion.mutate(at.toISOString(), {
      onSuccess: (h) => {
        setInvalid(false)
        setSaid({ tone: 'success', text: t.saved(formatTime(h.onDiversionUntil ?? at.toISOString())) })
      },
      onError: (error) => {
        setInvalid(error instanceof ApiError && error.field === 'until')
        setSaid({ tone: 'error', text: messageOf(error, t.failed) })
      },
    })
  }
  const submitTime = (e: FormEvent) => {
    e.preventDefault()
    const at = nextOccurrence(time, clock())
    if (!at) {
      setInvalid(true)
      setSaid({ tone: 'error', text: t.past })
      return
    }
    divert(at)
  }
  const end = () => {
    setSaid(null)
    endDiversion.mutate(undefined, {
      onSuccess: () => setSaid({ tone: 'success', text: t.ended }),
      onError: (error) => setSaid({ tone: 'error', text: messageOf(error, t.failed) }),
    })
  }

  return (
    <section aria-labelledby="diversion-heading" className={`space-y-3 rounded-xl border-2 p-4 ${until ? 'border-amber-500 bg-amber-50 text-amber-950' : 'border-slate-200 bg-white'}`}>
      <h2 id="diversion-heading" className="text-lg font-bold">{t.heading}</h2>
      {until ? (
        <>
          <p className="text-lg font-semibold">{t.onUntil(formatTime(until))}</p>
          <p className="text-sm">{t.onText}</p>
          <button type="button" className="btn-touch border border-amber-700 bg-white text-amber-950 hover:bg-amber-100" disabled={busy} onClick={end}>
            {endDiversion.isPending ? t.saving : t.end}
          </button>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-700">{t.open}</p>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">{t.set}</legend>
            <div className="flex flex-wrap gap-2">
              {QUICK_HOURS.map((hours) => (
                <button key={hours} type="button" className="btn-secondary" disabled={busy} onClick={() => divert(hoursFromNow(hours, clock()))}>
                  {t.for(hours)}
                </button>
              ))}
            </div>
          </fieldset>
          <form className="flex flex-wrap items-end gap-2" onSubmit={submitTime} noValidate>
            <div>
              <label htmlFor="diversion-until" className="label">{t.until}</label>
              <input
                id="diversion-until"
                type="time"
                className="input"
                value={time}
                aria-invalid={invalid || undefined}
                aria-describedby={said?.tone === 'error' ? 'diversion-said' : undefined}
                onChange={(e) => setTime(e.target.value)}
              />
            </div>
            <button type="submit" className="btn-secondary" disabled={busy}>
              {setDiversion.isPending ? t.saving : t.setUntil}
            </button>
          </form>
        </>
      )}
      {said && (
        <p id="diversion-said" role={said.tone === 'error' ? 'alert' : 'status'} className={`text-sm font-medium ${said.tone === 'error' ? 'text-red-700' : 'text-green-800'}`}>
          {said.text}
        </p>
      )}
    </section>
  )
}
