/// <reference types="vitest/config" />
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, loadEnv } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { VitePWA } from 'vite-plugin-pwa'
import { edgeLikeCloudFront } from './edge'
import { emergencyNumberOf } from './src/lib/emergencyNumber.ts'
import { reportSeconds } from './src/features/crew/reportTimes.ts'
import pkg from './package.json' with { type: 'json' }

// /api goes to the functions (cargo lambda watch locally), so the app and the API
// share one origin, as they do behind CloudFront.
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:9000'
const proxy = { '/api': { target: apiTarget, changeOrigin: false } }

// An installable app whose shell works offline (frontend/README.md, "Works on a bad connection"): Workbox precaches the build
// (every script, style, icon and index.html) and answers any navigation with index.html,
// so a phone with no signal still opens the app and its call button. The API is never
// cached here: a booking's last known state is the query cache's (frontend/README.md).
// The worker is our src/sw.ts (injectManifest), so that it can also show pushes (
// docs/decisions/0015-push-in-the-web-app.md); the plugin still builds it and injects the
// list of files to precache.
const pwa = VitePWA({
  registerType: 'autoUpdate',
  // A plain /registerSW.js (script-src 'self' in the CSP allows it; no inline script).
  injectRegister: 'script-defer',
  strategies: 'injectManifest',
  srcDir: 'src',
  filename: 'sw.ts',
  includeAssets: ['favicon-32.png', 'apple-touch-icon.png'],
  manifest: {
    name: 'AmbuCare · Ambulance booking and nearest hospitals',
    short_name: 'AmbuCare',
    description: 'Send an ambulance in two taps, find the nearest hospital, follow the trip.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#f8fafc',
    theme_color: '#b91c1c',
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  // The navigation fallback, its /api exception, the clean-up and clientsClaim live in src/sw.ts.
  injectManifest: {
    globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
  },
})

const TESTS = ['src/**/*.test.{ts,tsx}']

/**
 * The test files that replace a module (vi.mock): they run each in a fresh environment of
 * its own. Every other file shares its worker's jsdom and module cache with the files
 * before it (isolate: false), which took Vitest from 76 to 22 CPU-seconds
 * (docs/performance.md, "CI time"): building a jsdom and importing React, the router and
 * the app's modules for each of 48 files was most of its work. A mock needs a fresh
 * module cache (a module another file imported first would stay unmocked); what the
 * other files leave behind, src/test/setup.ts clears after every test.
 */
function filesThatMock(): string[] {
  const src = fileURLToPath(new URL('./src', import.meta.url))
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f) && /\bvi\.(do)?[mM]ock\(/.test(readFileSync(`${src}/${f}`, 'utf8')))
    .map((f) => `src/${f.replaceAll('\\', '/')}`)
}

/** A short fingerprint of docs/openapi.yaml, the shape of every answer the app keeps. */
function contractHash() {
  const contract = readFileSync(new URL('../docs/openapi.yaml', import.meta.url))
  return createHash('sha256').update(contract).digest('hex').slice(0, 12)
}

export default defineConfig(({ mode }) => {
  // A malformed emergency number stops the build here, not a call in the field.
  const env = loadEnv(mode, process.cwd(), 'VITE_')
  emergencyNumberOf(env.VITE_EMERGENCY_NUMBER)
  reportSeconds('VITE_CREW_IDLE_REPORT_SECS', env.VITE_CREW_IDLE_REPORT_SECS, 0)
  reportSeconds('VITE_CREW_HEARTBEAT_SECS', env.VITE_CREW_HEARTBEAT_SECS, 0)
  return {
    // What the trips kept on the device were written by (src/app/persist.ts): the app's
    // version and the API contract's (a changed trip shape drops them), not every build.
    define: { __APP_VERSION__: JSON.stringify(`${pkg.version}+${contractHash()}`) },
    plugins: [react(), tailwindcss(), edgeLikeCloudFront(), ...(process.env.VITEST ? [] : [pwa])],
    // `@/x` is `src/x`, as tsconfig.app.json's paths say.
    resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
    // 127.0.0.1 explicitly: 'localhost' may resolve to ::1 only, and the e2e default is 127.0.0.1.
    // cors: false: Vite would answer other localhost origins with CORS headers; deployed,
    // nothing does (edge.ts).
    server: { host: '127.0.0.1', port: 5173, proxy, cors: false },
    preview: { host: '127.0.0.1', proxy, cors: false },
    // The manifest lets scripts/bundle-budget.mjs tell the first load from the chunks loaded later.
    build: { sourcemap: true, manifest: true },
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      include: process.env.VITEST ? [] : TESTS,
      css: false,
      // Room for a busy 2-core CI machine (a lazily loaded map's first import takes seconds
      // there); a passing test takes no longer for it. Polls and delays run on a fake clock
      // (src/test/clock.ts), never waited for in real time.
      testTimeout: 15_000,
      projects: process.env.VITEST
        ? [
            { extends: true, test: { name: 'shared', include: TESTS, exclude: filesThatMock(), isolate: false } },
            { extends: true, test: { name: 'isolated', include: filesThatMock() } },
          ]
        : undefined,
    },
  }
})
