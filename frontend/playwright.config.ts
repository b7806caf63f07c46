import { defineConfig } from '@playwright/test'

// scripts/e2e.sh runs the projects below at the same time, each against a stack of its
// own (E2E_GROUP=<project>): each keeps its traces and report apart.
const group = process.env.E2E_GROUP ? `-${process.env.E2E_GROUP}` : ''

/**
 * The specs that wait on answer deadlines (decision 0012): they run against a stack
 * whose answer windows are seconds long (scripts/e2e.sh, ANSWER_WINDOW_SECS), so none
 * waits a minute for a deadline; every other spec keeps the production windows, so a
 * job never moves away under a test slow to accept it. A new spec that waits for a
 * job to move on, or for an alert about an unanswered one, adds its file here.
 */
export const SHORT_DEADLINE_SPECS = ['deadlines.spec.ts']

// Debian's Chromium; Playwright never downloads a browser here.
export default defineConfig({
  testDir: './e2e',
  outputDir: `./e2e-artifacts/test-results${group}`,
  workers: 1,
  // In CI (CI=true) a failed test runs once more, and passes as "flaky": CI's 2 cores
  // also run the Lambda release build, and a timed step (a phone's position report) can
  // then miss by seconds. Each flaky test is printed again at the end of the run
  // (scripts/e2e.sh), never hidden; locally, no retries.
  retries: process.env.CI === 'true' ? 1 : 0,
  // Generous: a 2-core machine runs the functions, DynamoDB Local and Chromium at once.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // The timings reporter prints every spec's and test's time and CPU-seconds, slowest first.
  reporter: [['list'], ['html', { outputFolder: `e2e-artifacts/report${group}`, open: 'never' }], ['./e2e/timings.ts']],
  projects: [
    { name: 'app', testIgnore: SHORT_DEADLINE_SPECS.map((f) => `**/${f}`) },
    { name: 'deadlines', testMatch: SHORT_DEADLINE_SPECS.map((f) => `**/${f}`) },
  ],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:5173',
    viewport: { width: 1280, height: 800 },
    actionTimeout: 20_000,
    navigationTimeout: 45_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
})
