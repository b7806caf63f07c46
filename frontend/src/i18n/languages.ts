// The languages, and where the service worker finds the chosen one: no React here, the
// worker imports it (src/sw.ts).
export const LANGUAGES = ['en', 'hi', 'pa'] as const
export type Language = (typeof LANGUAGES)[number]

/** Each language named in itself, for the picker. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी', pa: 'ਪੰਜਾਬੀ' }

export const STORAGE_KEY = 'ambucare.language'
/** Where the service worker reads the language (it has no localStorage): the Cache API. */
export const SW_CACHE = 'ambucare-language'
export const SW_KEY = '/__language'

export const isLanguage = (v: unknown): v is Language => typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v)

/** The first of the browser's languages we have ("hi-IN" → hi), else English. */
export function fromBrowser(languages: readonly string[]): Language {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0]
    if (isLanguage(primary)) return primary
  }
  return 'en'
}

/** The service worker's side: the language the app last chose, English if none. */
export async function storedForServiceWorker(): Promise<Language> {
  try {
    const answer = await (await caches.open(SW_CACHE)).match(SW_KEY)
    const text = answer ? await answer.text() : null
    return isLanguage(text) ? text : 'en'
  } catch {
    return 'en'
  }
}

