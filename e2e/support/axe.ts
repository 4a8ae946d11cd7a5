// The accessibility check of one screen: axe-core (through @axe-core/playwright) over the whole page, WCAG 2.x A and AA
// rules plus axe's best practices; a serious or critical violation fails the test with what and where.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

/** The violations that fail a screen. */
const FAILING = new Set(['serious', 'critical']);

/** Runs axe on the page as it is and expects no serious or critical violation; `screen` names it in the failure. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Transitions finished and fonts laid out, so colours are measured as shown.
  await page.evaluate(() => document.fonts.ready);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const failing = results.violations
    .filter((v) => FAILING.has(v.impact ?? ''))
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  expect(failing, `axe on ${screen}`).toEqual([]);
}
