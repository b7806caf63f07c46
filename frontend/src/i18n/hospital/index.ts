// The receiving hospital's words (i18n/hospital/) in the chosen language. All three
// languages are in one small chunk loaded with the board, the crew's screen, the admin's
// staff form or the hospital search, never in the first load. The language is the
// catalogue's (S.locale): the screens re-mount when it changes, as every text does.
import { S } from '@/strings'
import { en, type HospitalText } from './en'
import { hi } from './hi'
import { pa } from './pa'

export type { HospitalText }

const TEXTS: Record<string, HospitalText> = { en, hi, pa }

/** The hospital words in the language S is in (read while rendering). */
export const H = (): HospitalText => TEXTS[S.locale] ?? en
