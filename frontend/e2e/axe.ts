import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AxeResults, Result, RunOptions } from 'axe-core'
import { expect, type Page } from '@playwright/test'

// axe-core in the page, as every spec runs it: WCAG 2.0 and 2.1, A and AA, with Label in
// Name (WCAG 2.5.3, level A, which axe still calls experimental). axe is injected once
// per document and run with its own `axe.run`. @axe-core/playwright's analyze()
// injected it again at every call and finished each run in a new blank page: 450 ms a
// call whatever the page, against 50 to 130 ms here for the same rules
// (docs/performance.md, "CI time"). That wrapper also reached into frames; the app has
// none, and a frame on a checked page fails the check rather than go unchecked.

declare global {
  interface Window {
    axe: typeof import('axe-core')
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

export type AxeViolation = Result

/**
 * Runs axe on what the page shows now: the WCAG rules above, or only `rules`; on the
 * whole document, or only inside the `include` selectors. Returns the violations, and
 * what axe could not decide (`incomplete`, e.g. text on a gradient).
 */
export async function runAxe(
  page: Page,
  { include = [], rules }: { include?: string[]; rules?: string[] } = {},
): Promise<Pick<AxeResults, 'violations' | 'incomplete'>> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE)
  return page.evaluate(
    async ({ include, rules, tags }) => {
      if (document.querySelector('iframe, frame')) throw new Error('axe: the page has a frame, which this check does not reach')
      const options: RunOptions = rules
        ? { runOnly: { type: 'rule', values: rules } }
        : { runOnly: { type: 'tag', values: tags }, rules: { 'label-content-name-mismatch': { enabled: true } } }
      // Passes and inapplicable rules are not read: axe need not list their elements.
      options.resultTypes = ['violations', 'incomplete']
      const { violations, incomplete } = await window.axe.run(include.length > 0 ? { include: include.map((s) => [s]) } : document, options)
      return { violations, incomplete }
    },
    { include, rules, tags: WCAG_TAGS },
  )
}

/** The serious and critical violations, one line per element, with how it fails. */
export function serious(violations: AxeViolation[], note = '') {
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => `[${v.impact}] ${v.id}${note}: ${v.help} at ${n.target.join(' ')}\n    ${(n.failureSummary ?? '').replace(/\n/g, '\n    ')}`),
    )
}

/** axe finds nothing serious or critical on what the page shows now (or inside `include`). */
export async function expectAccessible(page: Page, screen: string, options: { include?: string[] } = {}) {
  const { violations } = await runAxe(page, options)
  expect(serious(violations), `axe found serious or critical violations on ${screen}`).toEqual([])
}
