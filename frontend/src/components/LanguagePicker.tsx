import { useId } from 'react'
import { applyLanguage, LANGUAGE_NAMES, LANGUAGES, useLanguage, type Language } from '@/i18n/language'
import { S } from '@/strings'

/**
 * The language, changed at once and kept on this device. Each choice is written in its
 * own language and script, so a person who cannot read the current one still finds theirs.
 */
export function LanguagePicker({ className = '', showLabel = false }: { className?: string; showLabel?: boolean }) {
  const language = useLanguage()
  const id = useId()
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <label htmlFor={id} className={showLabel ? 'label mb-0' : 'sr-only'}>
        {S.language.label}
      </label>
      <select
        id={id}
        className="input w-auto min-h-10 py-1 pr-8 text-sm"
        value={language}
        onChange={(e) => void applyLanguage(e.target.value as Language, true)}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </span>
  )
}
