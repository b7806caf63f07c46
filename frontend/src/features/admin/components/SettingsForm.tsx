import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/Feedback'
import { Section } from '@/components/Section'
import { BusyButton } from '@/components/BusyButton'
import { ApiError, messageOf } from '@/lib/api'
import type { Settings, SettingsChange } from '@/lib/types'
import { S } from '@/strings'
import { useChangeSettings } from '../api/settings'

type Unit = 'seconds' | 'minutes' | 'days' | 'km' | 'moves'

/** One number of the settings, by its name in the API (a delay as `presenceDelaySeconds.ONLINE`). */
interface NumberField {
  path: string
  label: () => string
  /** The server's bounds (shared/src/domain/settings.rs, `bounds`; docs/openapi.yaml says the same). */
  range: [number, number]
  unit: Unit
}

const delay = (presence: 'ONLINE' | 'OFFLINE' | 'NO_CREW', label: () => string): NumberField => ({
  path: `presenceDelaySeconds.${presence}`,
  label,
  range: [0, 3600],
  unit: 'seconds',
})

/** The form's sections, in the order a control room thinks of them. */
const SECTIONS: { id: string; title: () => string; intro: () => string; fields: NumberField[] }[] = [
  {
    id: 'answer-windows',
    title: () => S.systemSettings.answerHeading,
    intro: () => S.systemSettings.answerIntro,
    fields: [
      { path: 'emergencyAnswerSeconds', label: () => S.systemSettings.emergencyAnswerSeconds, range: [5, 600], unit: 'seconds' },
      { path: 'normalAnswerSeconds', label: () => S.systemSettings.normalAnswerSeconds, range: [5, 3600], unit: 'seconds' },
      { path: 'automaticMoves', label: () => S.systemSettings.automaticMoves, range: [0, 10], unit: 'moves' },
    ],
  },
  {
    id: 'dispatch-settings',
    title: () => S.systemSettings.dispatchHeading,
    intro: () => S.systemSettings.dispatchIntro,
    fields: [
      { path: 'sosRadiusKm', label: () => S.systemSettings.sosRadiusKm, range: [1, 200], unit: 'km' },
      delay('ONLINE', () => S.systemSettings.presenceOnline),
      delay('OFFLINE', () => S.systemSettings.presenceOffline),
      delay('NO_CREW', () => S.systemSettings.presenceNoCrew),
    ],
  },
  {
    id: 'records-targets',
    title: () => S.systemSettings.recordsHeading,
    intro: () => S.systemSettings.recordsIntro,
    fields: [
      { path: 'retentionDays', label: () => S.systemSettings.retentionDays, range: [7, 3650], unit: 'days' },
      { path: 'answerTargetSeconds', label: () => S.systemSettings.answerTargetSeconds, range: [5, 3600], unit: 'seconds' },
      { path: 'pickupTargetMinutes', label: () => S.systemSettings.pickupTargetMinutes, range: [1, 240], unit: 'minutes' },
    ],
  },
]
const NUMBERS = SECTIONS.flatMap((s) => s.fields)
const NUMBER_PATH = 'emergencyNumber'

/** The settings as the form holds them: every value as typed, by its path. */
type Values = Record<string, string>

function valuesOf(settings: Settings): Values {
  const values: Values = { [NUMBER_PATH]: settings.emergencyNumber }
  for (const f of NUMBERS) {
    const [top, nested] = f.path.split('.') as [keyof Settings, string | undefined]
    const value = nested ? (settings[top] as Record<string, number>)[nested] : settings[top]
    values[f.path] = String(value)
  }
  return values
}

/** The change the typed values make (only what differs), or the fields that are not whole numbers. */
function changeOf(values: Values, before: Values): { change: SettingsChange; count: number } | { invalid: Record<string, string> } {
  const change: Record<string, unknown> = {}
  const invalid: Record<string, string> = {}
  let count = 0
  for (const f of NUMBERS) {
    const typed = values[f.path]!.trim()
    if (typed === before[f.path]) continue
    if (!/^[0-9]+$/.test(typed)) {
      invalid[f.path] = S.systemSettings.wholeNumber
      continue
    }
    const [top, nested] = f.path.split('.') as [string, string | undefined]
    if (nested) change[top] = { ...(change[top] as object), [nested]: Number(typed) }
    else change[top] = Number(typed)
    count += 1
  }
  const number = values[NUMBER_PATH]!.trim()
  if (number !== before[NUMBER_PATH]) {
    change[NUMBER_PATH] = number
    count += 1
  }
  return Object.keys(invalid).length > 0 ? { invalid } : { change: change as SettingsChange, count }
}

/**
 * The settings, each number with its range under it; Save sends only what changed. A value
 * the server refuses (400) is marked and its message shown beside its input.
 */
export function SettingsForm({ settings }: { settings: Settings }) {
  const save = useChangeSettings()
  const [before, setBefore] = useState(() => valuesOf(settings))
  const [values, setValues] = useState(before)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [banner, setBanner] = useState<{ tone: 'success' | 'error' | 'info'; text: string } | null>(null)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setBanner(null)
    const made = changeOf(values, before)
    if ('invalid' in made) {
      setErrors(made.invalid)
      return
    }
    setErrors({})
    if (made.count === 0) {
      setBanner({ tone: 'info', text: S.systemSettings.nothingChanged })
      return
    }
    save.mutate(made.change, {
      onSuccess: (saved) => {
        const now = valuesOf(saved)
        setBefore(now)
        setValues(now)
        setBanner({ tone: 'success', text: S.systemSettings.saved })
      },
      onError: (error) => {
        const text = messageOf(error, S.systemSettings.saveFailed)
        const field = error instanceof ApiError ? error.field : undefined
        if (field && field in values) setErrors({ [field]: text })
        else setBanner({ tone: 'error', text })
      },
    })
  }

  const field = (path: string, label: string, hint: string, numeric: boolean) => {
    const id = `setting-${path.replace('.', '-')}`
    const error = errors[path]
    return (
      <div key={path}>
        <label htmlFor={id} className="label">{label}</label>
        <input
          id={id}
          className={`input ${error ? 'border-red-500' : ''}`}
          inputMode="numeric"
          type={numeric ? 'number' : 'text'}
          value={values[path]}
          onChange={(e) => setValues((v) => ({ ...v, [path]: e.target.value }))}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">{hint}</p>
        {error && <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">{error}</p>}
      </div>
    )
  }
  const unit = (u: Unit) => S.systemSettings[u]

  return (
    <form onSubmit={submit} noValidate aria-label={S.systemSettings.formName} className="space-y-6">
      {banner && <Alert tone={banner.tone}>{banner.text}</Alert>}
      {SECTIONS.map((s) => (
        <Section key={s.id} id={s.id} title={s.title()} intro={s.intro()} className="card space-y-4 p-5" headingClassName="text-lg font-semibold">
          <div className="grid gap-4 sm:grid-cols-2">
            {s.fields.map((f) => field(f.path, f.label(), S.systemSettings.range(f.range[0], f.range[1], unit(f.unit)), true))}
          </div>
        </Section>
      ))}
      <Section id="emergency-number" title={S.systemSettings.numberHeading} intro={S.systemSettings.numberIntro} className="card space-y-4 p-5" headingClassName="text-lg font-semibold">
        <div className="grid gap-4 sm:grid-cols-2">
          {field(NUMBER_PATH, S.systemSettings.emergencyNumber, S.systemSettings.numberHint, false)}
        </div>
      </Section>
      <div className="flex justify-end">
        <BusyButton busy={save.isPending} busyLabel={S.systemSettings.saving} className="btn-primary">
          {S.systemSettings.save}
        </BusyButton>
      </div>
    </form>
  )
}
