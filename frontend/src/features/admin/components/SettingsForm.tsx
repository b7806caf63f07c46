import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/Feedback'
import { Section } from '@/components/Section'
import { BusyButton } from '@/components/BusyButton'
import { ApiError, messageOf } from '@/lib/api'
import type { Settings, SettingsChange } from '@/lib/types'
import { useChangeSettings } from '../api/settings'
import { A } from '../strings'

type Unit = 'seconds' | 'minutes' | 'days' | 'km' | 'moves'

/** One number of the settings, by its name in the API (a delay as `presenceDelaySeconds.ONLINE`). */
interface NumberField {
  path: string
  label: () => string
  /** The server's bounds (shared/domain/src/settings.rs, `bounds`; docs/openapi.yaml says the same). */
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
    title: () => A().systemSettings.answerHeading,
    intro: () => A().systemSettings.answerIntro,
    fields: [
      { path: 'emergencyAnswerSeconds', label: () => A().systemSettings.emergencyAnswerSeconds, range: [5, 600], unit: 'seconds' },
      { path: 'normalAnswerSeconds', label: () => A().systemSettings.normalAnswerSeconds, range: [5, 3600], unit: 'seconds' },
      { path: 'automaticMoves', label: () => A().systemSettings.automaticMoves, range: [0, 10], unit: 'moves' },
    ],
  },
  {
    id: 'dispatch-settings',
    title: () => A().systemSettings.dispatchHeading,
    intro: () => A().systemSettings.dispatchIntro,
    fields: [
      { path: 'sosRadiusKm', label: () => A().systemSettings.sosRadiusKm, range: [1, 200], unit: 'km' },
      delay('ONLINE', () => A().systemSettings.presenceOnline),
      delay('OFFLINE', () => A().systemSettings.presenceOffline),
      delay('NO_CREW', () => A().systemSettings.presenceNoCrew),
    ],
  },
  {
    id: 'records-targets',
    title: () => A().systemSettings.recordsHeading,
    intro: () => A().systemSettings.recordsIntro,
    fields: [
      { path: 'retentionDays', label: () => A().systemSettings.retentionDays, range: [7, 3650], unit: 'days' },
      { path: 'answerTargetSeconds', label: () => A().systemSettings.answerTargetSeconds, range: [5, 3600], unit: 'seconds' },
      { path: 'pickupTargetMinutes', label: () => A().systemSettings.pickupTargetMinutes, range: [1, 240], unit: 'minutes' },
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
      invalid[f.path] = A().systemSettings.wholeNumber
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

  const unit = (u: Unit) => A().systemSettings[u]

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
      setBanner({ tone: 'info', text: A().systemSettings.nothingChanged })
      return
    }
    save.mutate(made.change, {
      onSuccess: (saved) => {
        const now = valuesOf(saved)
        setBefore(now)
        setValues(now)
        setBanner({ tone: 'success', text: A().systemSettings.saved })
      },
      onError: (error) => {
        // A refused value is marked at its input, said in the form's own words (its range);
        // anything else (a conflict, the network) above the form.
        const field = error instanceof ApiError && error.status === 400 ? error.field : undefined
        const number = NUMBERS.find((f) => f.path === field)
        if (field === NUMBER_PATH) setErrors({ [field]: A().systemSettings.numberShape })
        else if (field && number) setErrors({ [field]: A().systemSettings.outOfRange(number.range[0], number.range[1], unit(number.unit)) })
        else setBanner({ tone: 'error', text: messageOf(error, A().systemSettings.saveFailed) })
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
  return (
    <form onSubmit={submit} noValidate aria-label={A().systemSettings.formName} className="space-y-6">
      {banner && <Alert tone={banner.tone}>{banner.text}</Alert>}
      {SECTIONS.map((s) => (
        <Section key={s.id} id={s.id} title={s.title()} intro={s.intro()} className="card space-y-4 p-5" headingClassName="text-lg font-semibold">
          <div className="grid gap-4 sm:grid-cols-2">
            {s.fields.map((f) => field(f.path, f.label(), A().systemSettings.range(f.range[0], f.range[1], unit(f.unit)), true))}
          </div>
        </Section>
      ))}
      <Section id="emergency-number" title={A().systemSettings.numberHeading} intro={A().systemSettings.numberIntro} className="card space-y-4 p-5" headingClassName="text-lg font-semibold">
        <div className="grid gap-4 sm:grid-cols-2">
          {field(NUMBER_PATH, A().systemSettings.emergencyNumber, A().systemSettings.numberHint, false)}
        </div>
      </Section>
      <div className="flex justify-end">
        <BusyButton busy={save.isPending} busyLabel={A().systemSettings.saving} className="btn-primary">
          {A().systemSettings.save}
        </BusyButton>
      </div>
    </form>
  )
}
