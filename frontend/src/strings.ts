// Every user-facing text, in the chosen language (docs/decisions/0016-languages.md).
// `S` is a live binding: the screens read it while rendering, and setStrings() swaps the
// catalogue when the language changes (src/i18n/language.ts, which re-renders the app).
import type { Catalogue } from '@/i18n/en'

export type { Catalogue }

/**
 * Set before the first render (main.tsx awaits the first language, English included: each
 * is a chunk of its own, so the first load is the same size in every language). Read it
 * while rendering or in a function, never at a module's top level.
 */
export let S: Catalogue = undefined as unknown as Catalogue

/** Only src/i18n/language.ts (and the service worker, and tests) call this. */
export function setStrings(catalogue: Catalogue) {
  S = catalogue
}
