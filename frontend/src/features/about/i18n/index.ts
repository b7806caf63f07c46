// The about page's words (src/i18n/about/) in the chosen language: all three in this
// page's own chunk, never in the first load (its budget: frontend/README.md). The
// language is the catalogue's (S.locale): the page re-mounts when it changes.
import { en, type AboutText } from '@/i18n/about/en'
import { hi } from '@/i18n/about/hi'
import { pa } from '@/i18n/about/pa'
import { S } from '@/strings'

const TEXTS: Record<string, AboutText> = { en, hi, pa }

/** The about page's words in the chosen language (read while rendering). */
export function aboutText(): AboutText {
  return TEXTS[S.locale] ?? en
}
