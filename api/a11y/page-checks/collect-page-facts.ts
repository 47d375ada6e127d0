// The one call by which the browser runner gathers the page checks' facts from a rendered item,
// after axe has run on it (tabbing moves the focus, and the page's own focus handlers may change it).
// It never throws: a page whose facts cannot be read is named in the report like a rule that broke.
// The probes run in the page's isolated world (page-world.ts), out of reach of the page's scripts.
import type { CDPSession, Page } from 'playwright-core';
import type { AxeOutcome } from '../axe-rules.ts';
import type { PageWorld } from '../page-world.ts';
import { walkKeyboard } from './keyboard.ts';
import type { PageCheckOutcome, PageFacts } from './page-facts.ts';
import { PROBE_LIMITS, probePage } from './probe.ts';

/** The id under which a page whose facts could not be read is counted with axe's rules that broke. */
export const PAGE_CHECKS_RULE = 'ctpo-page-checks';

export async function collectPageFacts(page: Page, devtools: CDPSession, world: PageWorld): Promise<PageFacts | null> {
  try {
    const { scripted, ...facts } = await world.evaluate(probePage, PROBE_LIMITS);
    return { ...facts, keyboard: await walkKeyboard(page, devtools, world, scripted) };
  } catch {
    return null;
  }
}

/** axe's outcome of an item with the page checks' facts of the same rendered page beside it. */
export async function withPageFacts<Outcome extends Pick<AxeOutcome, 'errors'>>(outcome: Outcome, page: Page, devtools: CDPSession, world: PageWorld): Promise<Outcome & PageCheckOutcome> {
  const facts = await collectPageFacts(page, devtools, world);
  return { ...outcome, page: facts, ...(facts === null ? { errors: [...outcome.errors, PAGE_CHECKS_RULE] } : {}) };
}
