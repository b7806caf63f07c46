// The privacy words (src/i18n/privacy/) in the chosen language. All three languages are
// in this feature's own chunk, loaded with the privacy page or the profile, never in the
// first load (docs/decisions/0022-personal-data.md). The language is the catalogue's
// (S.locale): the screens re-mount when it changes, as every text does.
import { en, type PrivacyText } from '@/i18n/privacy/en'
import { hi } from '@/i18n/privacy/hi'
import { pa } from '@/i18n/privacy/pa'
import { S } from '@/strings'

export type { PrivacyText }

const TEXTS: Record<string, PrivacyText> = { en, hi, pa }

/** The privacy words in the chosen language (read while rendering). */
export function usePrivacyText(): PrivacyText {
  return TEXTS[S.locale] ?? en
}
