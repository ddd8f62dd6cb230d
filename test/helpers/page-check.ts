import type { Page } from 'playwright-core';
import type { Test } from 'tap';
import { checkAccessibility } from './axe.js';
import { pageWidths, screenshot } from './browser.js';

/**
 * What every page of a three-size tour gets: its screenshot (test-artifacts/screenshots/<name>.png), axe-core
 * with no serious or critical violation, and no sideways scrolling. Returns the page's and the device's widths.
 */
export async function screenshotAndCheck(t: Test, page: Page, name: string, label: string): Promise<{ page: number; device: number }> {
  await screenshot(page, name);
  await checkAccessibility(t, page, label);
  const widths = await pageWidths(page);
  t.ok(widths.page <= widths.device, `${label}: no sideways scrolling (${widths.page} ≤ ${widths.device}px)`);
  return widths;
}
