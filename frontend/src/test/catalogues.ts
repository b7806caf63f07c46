// What is wrong with a translated catalogue against English: the check of src/i18n's
// catalogues and of the admin screens' own (features/admin/strings).

// Distinct small numbers: they read the same in every language's digits and never group ("1,234").
const ARGS = [37, 41, 43]

/** What is wrong with `other` against `base`, one line per problem. */
export function catalogueProblems(base: object, other: object, path = ''): string[] {
  const problems: string[] = []
  const b = base as Record<string, unknown>
  const o = other as Record<string, unknown>
  for (const key of Object.keys(b)) {
    const at = path ? `${path}.${key}` : key
    const want = b[key]
    const got = o[key]
    if (!(key in o) || got === undefined) problems.push(`${at}: missing`)
    else if (typeof want === 'string') {
      if (typeof got !== 'string') problems.push(`${at}: not a text`)
      // An empty English text (otherRegions with another number) may be empty in every language.
      else if (got.trim() === '' && want.trim() !== '') problems.push(`${at}: empty`)
    } else if (typeof want === 'function') {
      if (typeof got !== 'function') problems.push(`${at}: not a function`)
      else {
        const args = ARGS.slice(0, want.length)
        const shown = String(want(...args))
        const said = String(got(...args))
        if (said.trim() === '') problems.push(`${at}: empty`)
        for (const arg of args) {
          if (shown.includes(String(arg)) && !said.includes(String(arg))) problems.push(`${at}: drops the placeholder shown as ${arg}`)
        }
      }
    } else if (typeof want === 'object' && want !== null) {
      if (typeof got !== 'object' || got === null) problems.push(`${at}: not a group`)
      else problems.push(...catalogueProblems(want, got, at))
    }
  }
  for (const key of Object.keys(o)) if (!(key in b)) problems.push(`${path ? `${path}.` : ''}${key}: not in English`)
  return problems
}

