// Structure and typography of a rendered page: layout tables marked up as data tables, data tables
// without headers, justified and all-capital blocks of text, underlined text that is no link,
// blinking text, and a refresh or redirect on a timer. Judged from computed styles and the tables'
// shape (a11y/page-checks/probe.ts). axe-core judges the blink and marquee elements and a whole
// page's meta refresh itself; these cover what it leaves.
import type { ItemPlace } from '../brightspace/places.ts';
import { msg } from '../i18n/messages.ts';
import type { PageFacts, TextBlockFact } from '../a11y/page-checks/page-facts.ts';
import type { Finding } from './finding.ts';
import { pageFinding } from './page-findings.ts';

/** A block in capitals is judged when it is this long: a heading or an acronym in capitals is no finding. */
export const CAPITALS_MIN_WORDS = 6;
export const CAPITALS_MIN_LETTERS = 30;
/** axe-core's meta-refresh rule lets a refresh after 20 hours pass (WCAG 2.2.1's exception); so do we. */
export const REFRESH_MAX_SECONDS = 72_000;

export function isAllCapitals(block: Pick<TextBlockFact, 'text' | 'textTransform'>): boolean {
  const words = block.text.match(/\p{L}+/gu) ?? [];
  const letters = words.join('');
  if (words.length < CAPITALS_MIN_WORDS || letters.length < CAPITALS_MIN_LETTERS) return false;
  const cased = letters.replace(/[^\p{Lu}\p{Ll}]/gu, '');
  if (cased === '') return false;
  return block.textTransform === 'uppercase' || cased === cased.toUpperCase();
}

export function pageStructureFindings(facts: Pick<PageFacts, 'tables' | 'blocks' | 'underlined' | 'blinking' | 'refresh'>, whole: boolean, place: ItemPlace, url: string | null): Finding[] {
  const findings: Finding[] = [];
  const layoutAsData = facts.tables.filter((table) => table.layout && (table.headerCells > 0 || table.caption || table.summary));
  if (layoutAsData.length > 0) {
    findings.push(pageFinding('a11y.layout-table-data-markup', place, url, msg('finding.a11y.layout-table-data-markup', { count: layoutAsData.length }), layoutAsData));
  }
  const noHeaders = facts.tables.filter((table) => !table.layout && !table.blockContent && table.rows >= 2 && table.columns >= 2 && table.headerCells === 0 && table.linkedCells === 0);
  if (noHeaders.length > 0) {
    findings.push(pageFinding('a11y.table-no-headers', place, url, msg('finding.a11y.table-no-headers', { count: noHeaders.length }), noHeaders));
  }
  const justified = facts.blocks.filter((block) => block.textAlign === 'justify' && block.lines >= 2);
  if (justified.length > 0) {
    findings.push(pageFinding('a11y.text-justified', place, url, msg('finding.a11y.text-justified', { count: justified.length }), justified));
  }
  const capitals = facts.blocks.filter(isAllCapitals);
  if (capitals.length > 0) {
    findings.push(pageFinding('a11y.text-all-caps', place, url, msg('finding.a11y.text-all-caps', { count: capitals.length }), capitals));
  }
  if (facts.underlined.length > 0) {
    findings.push(pageFinding('a11y.underline-not-link', place, url, msg('finding.a11y.underline-not-link', { count: facts.underlined.length }), facts.underlined));
  }
  if (facts.blinking.length > 0) {
    findings.push(pageFinding('a11y.text-blink', place, url, msg('finding.a11y.text-blink', { count: facts.blinking.length }), facts.blinking));
  }
  // A whole page's refresh is axe's (meta-refresh); a fragment's is ours, as axe leaves it out there.
  const refresh = whole ? [] : facts.refresh.filter((entry) => entry.delay !== null && entry.delay > 0 && entry.delay <= REFRESH_MAX_SECONDS);
  if (refresh.length > 0) {
    findings.push(pageFinding('a11y.auto-refresh', place, url, msg(refresh[0]!.url === '' ? 'finding.a11y.auto-refresh' : 'finding.a11y.auto-redirect', { seconds: refresh[0]!.delay! }), refresh));
  }
  return findings;
}
