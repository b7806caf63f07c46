// The admin screens' own texts in the chosen language: all three languages are in the
// admin screens' chunk (about 1.5 kB gzip each), never in the first load.
import { S } from '@/strings'
import { type AdminCatalogue, adminEn } from './en'
import { adminHi } from './hi'
import { adminPa } from './pa'

const BY_LOCALE: Record<string, AdminCatalogue> = { en: adminEn, hi: adminHi, pa: adminPa }

/** Read while rendering, in the language S is in (a new language re-mounts the screens). */
export const A = (): AdminCatalogue => BY_LOCALE[S.locale] ?? adminEn
