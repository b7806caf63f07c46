import fs from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import react from 'eslint-plugin-react'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

// Feature boundaries (frontend/README.md, "Layout"). A feature is a folder under
// src/features/; every folder there is one, so a new feature is covered without an edit here.
const features = fs
  .readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// Features depend on each other one way only, so no two ever use each other (a cycle,
// however long): a feature may use only the features listed before it here. A folder
// not listed (a new feature) may use every listed one and none may use it; list it
// where it fits once another feature needs it. Two features that each need the other
// cannot both be satisfied by any order: what both need moves to lib/ or components/.
const featureOrder = ['privacy', 'ambulances', 'hospitals', 'booking', 'emergency', 'crew', 'home', 'admin']
for (const name of featureOrder) {
  if (!features.includes(name)) throw new Error(`eslint.config.js: featureOrder names ${name}, not a folder of src/features/`)
}
/** The features `name` may use: those before it in featureOrder (all of them if it is not listed). */
const usable = (name) => {
  const at = featureOrder.indexOf(name)
  return at === -1 ? featureOrder : featureOrder.slice(0, at)
}

// Relative imports stay near: anything two folders up or further is imported as `@/...`.
const noClimbing = {
  regex: '^(\\.\\./){2,}',
  message: "Import from another area as '@/...', not by climbing with '../../'.",
}

/** No climbing in `files`, nor any of the `extra` import patterns. */
const restrict = (files, ...extra) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [noClimbing, ...extra] }] },
})

const queryKeyRules = [
  {
    selector: "Property[key.name='queryKey'] > ArrayExpression",
    message: "Take the key from the feature's factory (api/keys.ts), not a literal array.",
  },
  {
    selector: "CallExpression[callee.property.name=/^(set|get)Query(Data|State)$/] > ArrayExpression",
    message: "Take the key from the feature's factory (api/keys.ts), not a literal array.",
  },
]
const textRules = [
  {
    selector: 'JSXAttribute[name.name=/^(aria-label|aria-description|alt|title|placeholder|label|[a-z]+Label|heading|message|description)$/] > Literal',
    message: 'Take this text from the catalogue (S in @/strings), not a literal.',
  },
  {
    selector: 'JSXAttribute[name.name=/^(aria-label|aria-description|alt|title|placeholder|label|[a-z]+Label|heading|message|description)$/] > JSXExpressionContainer > :matches(Literal[value=/[A-Za-z]/], TemplateLiteral)',
    message: 'Take this text from the catalogue (S in @/strings), not a literal.',
  },
]

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'e2e-artifacts', 'test-results', 'playwright-report'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx}'],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  restrict(['src/**/*.{ts,tsx}']),
  // Query keys come from the feature's factory (features/<area>/api/keys.ts), built under
  // a root of lib/queryKeys.ts, so that invalidating a root reaches every view of it.
  // Every text a person reads or hears comes from the catalogue (S, src/i18n/en.ts), so
  // that it is in their language (docs/decisions/0016-languages.md); tests may write any.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...queryKeyRules, ...textRules] },
  },
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/test/**'],
    rules: { 'no-restricted-syntax': ['error', ...queryKeyRules] },
  },
  // Requests go by the contract: call('GET /path', ...) types the path, body and answer
  // from docs/openapi.yaml (lib/contract.ts). The untyped api<T>() under it is for
  // lib/api.ts and tests only. (A rule of its own, so it adds to the import rules above.)
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/lib|\\.|\\.\\.)/api$',
              importNames: ['api'],
              message: "Call a route of the contract: call('GET /path', ...) types the path, body and answer (lib/contract.ts).",
            },
          ],
        },
      ],
    },
  },
  // JSX text children are the catalogue's too (tests may write what they like).
  {
    files: ['src/**/*.tsx'],
    ignores: ['src/**/*.test.tsx', 'src/test/**'],
    plugins: { react },
    rules: { 'react/jsx-no-literals': ['error', { noStrings: false, allowedStrings: ['·', '—', '→', '←', '×', '/', ':', ',', '(', ')', '*', '…', '#'] }] },
  },
  // The shared layers know nothing of the features or the app shell.
  restrict(['src/lib/**/*.{ts,tsx}', 'src/components/**/*.{ts,tsx}', 'src/strings.ts'], {
    regex: '^@/(features|app)(/|$)',
    message: 'lib/ and components/ are shared by every feature: they may not import a feature or the app shell.',
  }),
  // A feature uses another feature only through its index.ts (`@/features/<name>`) and
  // never the app shell. Its top-level files may not step out with '../' (that is
  // src/features/); one folder down, '../' stays inside the feature.
  ...features.flatMap((name) => {
    const own = [
      {
        regex: `^@/features/(?!${escape(name)}/)[^/]+/`,
        message: "Use another feature through its index ('@/features/<name>'), not its insides.",
      },
      { regex: '^@/app(/|$)', message: 'A feature may not import the app shell (src/app).' },
      {
        // Any other feature's index, unless it comes before this one (its own insides
        // are the rule above's). Its own index too: inside a feature, import relatively.
        regex: `^@/features/(?!${[...usable(name).map((n) => `${escape(n)}(?:/|$)`), `${escape(name)}/`].join('|')})`,
        message:
          `Features depend one way only, so no two use each other: ${name} may use ` +
          `${usable(name).join(', ') || 'no other feature'} (those before it in featureOrder, eslint.config.js). ` +
          'What two features both need goes to lib/ or components/.',
      },
    ]
    const stepOut = { regex: '^\\.\\./', message: "Import from another area as '@/...'." }
    return [
      restrict([`src/features/${name}/*.{ts,tsx}`], ...own, stepOut),
      restrict([`src/features/${name}/*/**/*.{ts,tsx}`], ...own),
    ]
  }),
)
