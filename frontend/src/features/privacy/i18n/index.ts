// The privacy words in the chosen language, loaded with the screens that show them: a
// chunk per language, so the first load carries none of them (the page is long).
import { useEffect, useSyncExternalStore } from 'react'
import { useLanguage, type Language } from '@/i18n/language'
import type { PrivacyText } from './en'

export type { PrivacyText }

const loading = new Map<Language, Promise<PrivacyText>>()
const ready = new Map<Language, PrivacyText>()
const listeners = new Set<() => void>()

/** The words for `language` (one load each, kept). */
export function privacyText(language: Language): Promise<PrivacyText> {
  let text = loading.get(language)
  if (!text) {
    text = (
      language === 'hi'
        ? import('./hi').then((m) => m.hi)
        : language === 'pa'
          ? import('./pa').then((m) => m.pa)
          : import('./en').then((m) => m.en)
    ).then((t) => {
      ready.set(language, t)
      listeners.forEach((l) => l())
      return t
    })
    loading.set(language, text)
  }
  return text
}

const subscribe = (l: () => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}

/** The words in the chosen language, or null while they load (the screen shows a spinner). */
export function usePrivacyText(): PrivacyText | null {
  const language = useLanguage()
  const text = useSyncExternalStore(subscribe, () => ready.get(language) ?? null, () => null)
  useEffect(() => {
    // A failed load (offline) is tried again on the next render that needs it.
    privacyText(language).catch(() => loading.delete(language))
  }, [language])
  return text
}
