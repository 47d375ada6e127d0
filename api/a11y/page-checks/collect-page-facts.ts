// The one call by which the browser runner gathers the page checks' facts from a rendered item,
// after axe has run on it (tabbing moves the focus, and the page's own focus handlers may change it).
// It never throws: a page whose facts cannot be read is named by the runner like a rule that broke.
import type { CDPSession, Page } from 'playwright-core';
import { walkKeyboard } from './keyboard.ts';
import type { PageFacts } from './page-facts.ts';
import { PROBE_LIMITS, probePage } from './probe.ts';

/** The id under which a page whose facts could not be read is counted with axe's rules that broke. */
export const PAGE_CHECKS_RULE = 'ctpo-page-checks';

export async function collectPageFacts(page: Page, devtools: CDPSession): Promise<PageFacts | null> {
  try {
    const { scripted, ...facts } = await page.evaluate(probePage, PROBE_LIMITS);
    return { ...facts, keyboard: await walkKeyboard(page, devtools, scripted) };
  } catch {
    return null;
  }
}
