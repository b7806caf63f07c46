// Plural forms by the language's own rules (Intl.PluralRules): Hindi and Punjabi treat 0
// and 1 alike ("one"), English only 1.
type Forms = { one?: string; other: string }

const rules = new Map<string, Intl.PluralRules>()

/** The form of `forms` for `n` in `locale`, with `#` replaced by `n` written in that locale. */
export function plural(locale: string, n: number, forms: Forms): string {
  let r = rules.get(locale)
  if (!r) rules.set(locale, (r = new Intl.PluralRules(locale)))
  const form = r.select(n) === 'one' && forms.one !== undefined ? forms.one : forms.other
  return form.replace('#', new Intl.NumberFormat(locale).format(n))
}
