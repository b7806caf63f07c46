// The receiving hospital's texts: every language has every key of English, none empty,
// every placeholder kept (the check of src/i18n's catalogues).
import { describe, expect, it } from 'vitest'
import { catalogueProblems } from '@/test/catalogues'
import { en } from './en'
import { hi } from './hi'
import { pa } from './pa'

describe("the receiving hospital's texts", () => {
  it.each([
    ['hi', hi],
    ['pa', pa],
  ])('%s has every key of English, none empty, every placeholder kept', (_name, catalogue) => {
    expect(catalogueProblems(en, catalogue)).toEqual([])
  })
})
