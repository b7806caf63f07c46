// The chosen language: first from the browser's languages, then the picker's choice kept
// on this device. English is in the first load; Hindi and Punjabi each load only when
// chosen (docs/decisions/0016-languages.md).
import { useSyncExternalStore } from 'react'
import { setStrings } from '@/strings'
import type { Catalogue } from './en'
import { fromBrowser, isLanguage, STORAGE_KEY, SW_CACHE, SW_KEY, type Language } from './languages'

export { LANGUAGES, LANGUAGE_NAMES, type Language } from './languages'

/** The language to start in: the one picked on this device, else the browser's. */
export function initialLanguage(): Language {
  let stored: string | null = null
  try {
    stored = localStorage.getItem(STORAGE_KEY)
  } catch {
    stored = null
  }
  if (isLanguage(stored)) return stored
  return fromBrowser(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]))
}

export function loadCatalogue(language: Language): Promise<Catalogue> {
  switch (language) {
    case 'hi':
      return import('./hi').then((m) => m.hi)
    case 'pa':
      return import('./pa').then((m) => m.pa)
    default:
      return import('./en').then((m) => m.en)
  }
}

let current: Language = 'en'
const listeners = new Set<() => void>()

export const currentLanguage = () => current

/**
 * Switches every text to `language`: loads its catalogue, swaps S, sets <html lang> and the
 * tab's title, tells the service worker, and re-renders whoever uses useLanguage().
 * `remember`: the person chose it (the picker), so this device keeps it.
 */
export async function applyLanguage(language: Language, remember = false): Promise<void> {
  const catalogue = await loadCatalogue(language)
  setStrings(catalogue)
  current = language
  if (typeof document !== 'undefined') {
    document.documentElement.lang = catalogue.locale
    document.title = catalogue.appTitle
  }
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, language)
    } catch {
      // Private mode with storage off: the choice lasts this visit.
    }
  }
  void tellServiceWorker(language)
  listeners.forEach((l) => l())
}

async function tellServiceWorker(language: Language) {
  try {
    if (typeof caches === 'undefined') return
    const cache = await caches.open(SW_CACHE)
    await cache.put(SW_KEY, new Response(language))
  } catch {
    // No Cache API (an insecure origin): notifications stay in English.
  }
}

const subscribe = (l: () => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}

/** The current language; the component re-renders when it changes. */
export const useLanguage = () => useSyncExternalStore(subscribe, currentLanguage, currentLanguage)
