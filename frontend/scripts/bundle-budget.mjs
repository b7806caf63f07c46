#!/usr/bin/env node
// The first-load budget of the web app (docs/requirements.md, "CI and performance budgets"), read from a production build's Vite
// manifest and source maps (`vite build` writes both; vite.config.ts asks for them):
//   1. the initial JavaScript (the entry script and every chunk it imports statically,
//      all fetched before the first screen) is at most 150 kB gzip;
//   2. the emergency path (home → hold → the trip's page, and what the trip page shows)
//      is in that first load: no chunk to wait for on a bad connection...
//   3. ...but the map's (Leaflet and our map components, loaded with lazy()), which must
//      hold nothing else;
//   4. in every language: the first screen also waits for its catalogue (each is a chunk of
//      its own, English too, docs/decisions/0016-languages.md), and with it the total stays
//      within the budget.
// Prints the figures; exits 1, saying which rule broke, when one does.
// Usage: node scripts/bundle-budget.mjs [dist]   (default: frontend/dist)
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const BUDGET_KB = 150
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.resolve(process.argv[2] ?? path.join(root, 'dist'))

/** The modules a person needs from the home page to "ambulance dispatched" and the trip page. */
const EMERGENCY_PATH = [
  'src/main.tsx',
  'src/app/Layout.tsx',
  'src/features/home/routes/HomePage.tsx',
  'src/features/emergency/routes/EmergencyPage.tsx',
  'src/components/HoldButton.tsx',
  'src/components/CallEmergency.tsx',
  'src/features/booking/components/PickupField.tsx',
  'src/features/booking/routes/TrackBookingPage.tsx',
  'src/features/booking/components/PatientDetailsForm.tsx',
  'src/features/booking/components/ShareTracking.tsx',
]
/** The maps those screens load lazily: the pickup pin and the trip's map. */
const MAP_ENTRIES = ['src/features/booking/components/PickupMap.tsx', 'src/features/booking/components/TrackingMap.tsx']
/** What the map's chunks may hold. */
const MAP_SOURCE = /^(node_modules\/(leaflet|react-leaflet|@react-leaflet)\/|src\/components\/map\/|src\/features\/[^/]+\/components\/\w*Map\.tsx$)/

const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'))
const failures = []
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`
const gzipSize = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length

/** The chunks `keys` load before running: themselves and their static imports, all the way down. */
function closure(keys) {
  const seen = new Set()
  const visit = (key) => {
    if (seen.has(key) || !manifest[key]) return
    seen.add(key)
    for (const next of manifest[key].imports ?? []) visit(next)
  }
  keys.forEach(visit)
  return seen
}

/** The source files a chunk was built from, relative to frontend/ (from its source map). */
function sourcesOf(file) {
  const mapFile = path.join(dist, `${file}.map`)
  const map = JSON.parse(readFileSync(mapFile, 'utf8'))
  return map.sources.map((s) => path.relative(root, path.resolve(path.dirname(mapFile), s)).split(path.sep).join('/'))
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry)
if (!entry) throw new Error(`no entry in ${dist}/.vite/manifest.json`)
const initial = closure([entry])

// 1. The initial JavaScript.
console.log('initial JavaScript (the entry and its static imports):')
let total = 0
for (const key of initial) {
  const size = gzipSize(manifest[key].file)
  total += size
  console.log(`  ${manifest[key].file}: ${kb(size)} gzip`)
}
console.log(`  total: ${kb(total)} gzip (budget ${BUDGET_KB} kB)`)
const initialCss = [...initial].flatMap((key) => manifest[key].css ?? [])
console.log(`initial CSS (not budgeted): ${kb(initialCss.reduce((sum, file) => sum + gzipSize(file), 0))} gzip`)
if (total > BUDGET_KB * 1024) failures.push(`the initial JavaScript is ${kb(total)} gzip, over the ${BUDGET_KB} kB budget`)

// 4. Each language's first load: the initial JavaScript and that language's catalogue.
const LANGUAGES = { en: 'src/i18n/en.ts', hi: 'src/i18n/hi.ts', pa: 'src/i18n/pa.ts' }
for (const [language, key] of Object.entries(LANGUAGES)) {
  if (!manifest[key]) {
    failures.push(`${key} is not a chunk of its own: every language would be in the first load`)
    continue
  }
  const extra = [...closure([key])].filter((k) => !initial.has(k)).reduce((sum, k) => sum + gzipSize(manifest[k].file), 0)
  console.log(`  first load in ${language}: ${kb(total + extra)} gzip (its catalogue ${kb(extra)})`)
  if (total + extra > BUDGET_KB * 1024) failures.push(`the first load in ${language} is ${kb(total + extra)} gzip, over the ${BUDGET_KB} kB budget`)
}

// 2. The emergency path is in it.
const initialSources = new Set([...initial].flatMap((key) => sourcesOf(manifest[key].file)))
for (const source of EMERGENCY_PATH) {
  if (!initialSources.has(source)) failures.push(`${source} is not in the first load (lazy-loaded?): the emergency path must not wait for a chunk`)
}
console.log(`emergency path: ${EMERGENCY_PATH.length} modules checked in the first load`)

// 3. Beyond it, only the map.
const mapChunks = [...closure(MAP_ENTRIES.filter((key) => manifest[key] ?? failures.push(`${key} is not a lazy chunk of its own`)))].filter(
  (key) => !initial.has(key),
)
let mapJs = 0
let mapCss = 0
for (const key of mapChunks) {
  const chunk = manifest[key]
  mapJs += gzipSize(chunk.file)
  for (const css of chunk.css ?? []) mapCss += gzipSize(css)
  const strays = sourcesOf(chunk.file).filter((s) => !MAP_SOURCE.test(s) && !s.startsWith('\0') && (s.startsWith('src/') || s.startsWith('node_modules/')))
  if (strays.length) failures.push(`the map's chunk ${chunk.file} also carries ${strays.join(', ')}: the emergency path would wait for it`)
}
console.log(`the map (loaded on demand: ${mapChunks.map((key) => manifest[key].file).join(', ')}): ${kb(mapJs)} JS + ${kb(mapCss)} CSS gzip`)

if (failures.length) {
  for (const f of failures) console.error(`bundle budget: ${f}`)
  process.exit(1)
}
console.log('bundle budget: ok')
