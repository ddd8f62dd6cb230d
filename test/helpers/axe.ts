import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The part of tap's `t` the check uses. */
export interface Assert {
  ok(value: unknown, message: string): unknown;
  comment(message: string): unknown;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; failureSummary: string }[];
}

const BLOCKING = new Set(['serious', 'critical']);

let axeSource: string | undefined;
const loadAxe = () => (axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

/**
 * The login pages send `Content-Security-Policy: script-src 'self'`, so axe cannot go in as an inline
 * <script> (`page.addScriptTag({ content })` is refused by the page's CSP). Evaluating its source over the
 * DevTools protocol is not subject to the page's CSP, so the page is audited with its real headers and no
 * `bypassCSP` context is needed (which would also hide CSP breakage from the test).
 */
async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate('typeof globalThis.axe === "object"')) return;
  await page.evaluate(loadAxe());
}

/** Runs axe-core on the page as it is now and returns every violation (all impacts), summarised. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await injectAxe(page);
  // A string, not a function: tsx's transform can add helpers (`__name`) a serialised function cannot reach.
  return page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary || '' })),
  })))`) as Promise<AxeViolation[]>;
}

export const describeViolations = (violations: AxeViolation[]) => violations.map((v) =>
  `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.map((n) =>
    `      at ${n.target.join(' ')}\n        ${n.failureSummary.replace(/\n/g, '\n        ')}`).join('\n')}`).join('\n');

/**
 * Asserts the page has no serious or critical accessibility violations (WCAG A/AA and axe's best practices,
 * as axe-core's defaults run them); moderate and minor ones are reported as TAP comments, not failures.
 */
export async function checkAccessibility(t: Assert, page: Page, label: string): Promise<AxeViolation[]> {
  const violations = await axeViolations(page);
  const blocking = violations.filter((v) => BLOCKING.has(v.impact ?? ''));
  const other = violations.filter((v) => !BLOCKING.has(v.impact ?? ''));
  if (other.length) t.comment(`axe, ${label}: minor/moderate issues:\n${describeViolations(other)}`);
  t.ok(blocking.length === 0, blocking.length
    ? `axe: ${label} has ${blocking.length} serious/critical accessibility violation(s):\n${describeViolations(blocking)}`
    : `axe: ${label} has no serious or critical accessibility violations`);
  return violations;
}
