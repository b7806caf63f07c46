// The import boundaries of eslint.config.js, run on made-up files: the rules must refuse
// what they are there to refuse (a rule that never fires passes `npm run lint` too).
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// frontend/, where eslint.config.js is (this file is frontend/src/boundaries.test.ts).
const frontend = decodeURIComponent(import.meta.url.replace(/^file:\/\//, '').replace(/\/src\/[^/]+$/, ''))
const eslint = new ESLint({ cwd: frontend })

const importRules = ['no-restricted-imports', '@typescript-eslint/no-restricted-imports']

/** The import rules' messages for `name` imported from `source` in the file at `path`. */
async function refusals(path: string, source: string, name = 'x'): Promise<string[]> {
  const [result] = await eslint.lintText(`import { ${name} } from '${source}'\nexport const y = ${name}\n`, { filePath: path })
  return result!.messages.filter((m) => importRules.includes(m.ruleId ?? '')).map((m) => m.message)
}

describe('features depend one way only (no cycle between two features)', () => {
  it('refuses the cycle this rule was made for: hospitals using booking, which uses hospitals', async () => {
    expect(await refusals('src/features/booking/components/AnswerNotices.tsx', '@/features/hospitals')).toEqual([])
    const refused = await refusals('src/features/hospitals/routes/NearestHospitalsPage.tsx', '@/features/booking')
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatch(/hospitals may use privacy, ambulances \(those before it in featureOrder/)
  })

  it('refuses a longer cycle closing at its lowest feature', async () => {
    // admin uses booking, which uses ambulances: ambulances may use neither.
    expect(await refusals('src/features/admin/routes/AdminLivePage.tsx', '@/features/booking')).toEqual([])
    expect(await refusals('src/features/ambulances/api/ambulances.ts', '@/features/admin')).toHaveLength(1)
    expect(await refusals('src/features/ambulances/index.ts', '@/features/booking')).toHaveLength(1)
  })

  it('lets an unlisted feature use the listed ones, and nobody use it', async () => {
    expect(await refusals('src/features/auth/routes/LoginPage.tsx', '@/features/booking')).toEqual([])
    expect(await refusals('src/features/profile/routes/ProfilePage.tsx', '@/features/auth')).toHaveLength(1)
    expect(await refusals('src/features/admin/routes/AdminCrewPage.tsx', '@/features/profile')).toHaveLength(1)
  })

  it("refuses a feature's own index by its alias (inside a feature, imports are relative)", async () => {
    expect(await refusals('src/features/booking/routes/HistoryPage.tsx', '@/features/booking')).toHaveLength(1)
  })
})

describe('the other boundaries', () => {
  it("refuses another feature's insides, and lets a feature reach its own", async () => {
    expect(await refusals('src/features/admin/routes/AdminLivePage.tsx', '@/features/booking/api/keys')).toHaveLength(1)
    expect(await refusals('src/features/booking/routes/HistoryPage.tsx', '@/features/booking/api/keys')).toEqual([])
  })

  it('keeps lib/ and components/ free of the features and the app shell', async () => {
    expect(await refusals('src/lib/trip/status.ts', '@/features/booking')).toHaveLength(1)
    expect(await refusals('src/components/Dialog.tsx', '@/app/router')).toHaveLength(1)
  })

  it('sends requests through the typed call(), leaving the untyped api() to lib/api.ts and tests', async () => {
    expect(await refusals('src/features/booking/api/bookings.ts', '@/lib/api', 'call')).toEqual([])
    expect(await refusals('src/features/booking/api/bookings.ts', '@/lib/api', 'api')).toHaveLength(1)
    expect(await refusals('src/lib/push/client.ts', '../api', 'api')).toHaveLength(1)
    expect(await refusals('src/lib/refresh.test.ts', './api', 'api')).toEqual([])
  })

  it('refuses climbing two folders up', async () => {
    expect(await refusals('src/features/booking/routes/HistoryPage.tsx', '../../lib/types')).toHaveLength(1)
  })
})

describe('texts come from the catalogue', () => {
  /** The text rules' messages for `jsx` in a screen. */
  async function literals(jsx: string): Promise<string[]> {
    const code = `import { S } from '@/strings'\nimport { Dialog } from '@/components/Dialog'\nexport const x = () => (${jsx})\nexport const y = S\n`
    const [result] = await eslint.lintText(code, { filePath: 'src/features/booking/routes/Made.tsx' })
    return result!.messages
      .filter((m) => m.ruleId === 'react/jsx-no-literals' || m.ruleId === 'no-restricted-syntax')
      .map((m) => m.message)
  }

  it('refuses a literal text as a child, an aria-label, or a label passed to a component', async () => {
    expect(await literals('<p>{S.appTitle}</p>')).toEqual([])
    expect(await literals('<p>Hello</p>')).toHaveLength(1)
    expect(await literals('<button aria-label="Close" />')).toHaveLength(1)
    expect(await literals('<Dialog label="Cancel booking" busyLabel={"Cancelling"} />')).toHaveLength(2)
    expect(await literals('<Dialog label={S.appTitle} busyLabel={S.appTitle} className="p-2" />')).toEqual([])
  })
})
