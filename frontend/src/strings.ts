// Every user-facing text, in the chosen language (docs/decisions/0016-languages.md).
// `S` is a live binding: the screens read it while rendering, and setStrings() swaps the
// catalogue when the language changes (src/i18n/language.ts, which re-renders the app).
import { en, type Catalogue } from '@/i18n/en'

export type { Catalogue }

export let S: Catalogue = en

/** Only src/i18n/language.ts (and the service worker, and tests) call this. */
export function setStrings(catalogue: Catalogue) {
  S = catalogue
}
