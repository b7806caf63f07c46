import { defineConfig } from '@playwright/test'

// scripts/e2e.sh runs shards side by side, each against a stack of its own
// (E2E_SHARD=n): each keeps its traces and report apart.
const shard = process.env.E2E_SHARD ? `-${process.env.E2E_SHARD}` : ''

// Debian's Chromium; Playwright never downloads a browser here.
export default defineConfig({
  testDir: './e2e',
  outputDir: `./e2e-artifacts/test-results${shard}`,
  workers: 1,
  // In CI (CI=true) a failed test runs once more, and passes as "flaky": CI's 2 cores
  // also run the Lambda release build, and a timed step (a 60 s answer deadline, a
  // phone's position report) can then miss by seconds. Each flaky test is printed
  // again at the end of the run (scripts/e2e.sh), never hidden; locally, no retries.
  retries: process.env.CI === 'true' ? 1 : 0,
  // Generous: a 2-core machine runs the functions, DynamoDB Local and Chromium at once.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { outputFolder: `e2e-artifacts/report${shard}`, open: 'never' }], ['./e2e/timings.ts']],
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
