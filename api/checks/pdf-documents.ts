// The PDF checks past tags, title and language, after ISO 14289-1 (PDF/UA-1) and the failure
// conditions the Matterhorn Protocol lists for it, kept to what a student meets: figures and formulas
// without alternative text (7.3, 7.7), tables without headers (7.5), headings out of order (7.4.2),
// content outside the tags (7.1), links without a Link tag or a description and form fields without a
// name (7.18), the title not shown (7.1), encryption that bars assistive technology (7.16), dynamic
// XFA (7.15), fonts not embedded (7.21.4) and text that maps to no Unicode (7.21.7). Each judges
// facts the reader found; when the facts are unclear, it stays quiet.
import { msg } from '../i18n/messages.ts';
import type { CheckId } from './catalogue.ts';
import type { Message } from '../i18n/messages.ts';
import type { DocumentHeading, PdfFacts } from '../extract/document-facts.ts';
import type { Finding } from './finding.ts';

export type Report = (check: CheckId, message: Message, details?: Partial<Finding>) => void;

/** Pages listed in a message: the first few, then "and N more". */
const LISTED_PAGES = 5;

/** Text outside the tags this short is a stray mark (a bullet, a page number), not content a reader misses. */
const MIN_UNTAGGED_CHARS = 5;

/** A page whose text is this unreadable (share of its characters, and at least so many) reads as gibberish. */
const UNMAPPED_SHARE = 0.2;
const MIN_UNMAPPED_CHARS = 10;

const BARE_ADDRESS = /^(https?:\/\/|www\.|mailto:)\S+$/i;

/** "2, 5, 7" or "2, 5, 7, 9, 11 and 3 more", with the pages in order and each once. */
export function pageList(pages: readonly number[]): Message {
  const unique = [...new Set(pages)].sort((a, b) => a - b);
  const shown = unique.slice(0, LISTED_PAGES);
  return msg('finding.doc.page-list', { count: shown.length, pages: shown.join(', '), more: unique.length - shown.length });
}

/** Where heading levels go wrong: the first heading when it is not level 1 (PDF only), and each skip. */
export function headingProblems(headings: readonly DocumentHeading[], mustStartAtOne: boolean): { from: number; to: number; page?: number }[] {
  const problems: { from: number; to: number; page?: number }[] = [];
  let previous = 0;
  for (const [index, heading] of headings.entries()) {
    const skipped = index === 0 ? mustStartAtOne && heading.level > 1 : heading.level > previous + 1;
    if (skipped) problems.push({ from: previous, to: heading.level, ...(heading.page === undefined ? {} : { page: heading.page }) });
    previous = heading.level;
  }
  return problems;
}

const knownLanguages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/**
 * Whether a language tag is a valid BCP 47 tag: well-formed (Intl refuses what is not), a primary
 * language of two or three letters (or private use), and a two-letter one that ISO 639-1 has.
 */
export function isValidLanguageTag(tag: string): boolean {
  // Private use ("x-none", which Word writes) and the old irregular "i-" tags are BCP 47, not locales.
  if (/^(x|i)(-[a-z0-9]{1,8})+$/i.test(tag)) return true;
  try {
    Intl.getCanonicalLocales(tag);
  } catch {
    return false;
  }
  const primary = tag.split('-')[0]!.toLowerCase();
  if (!/^[a-z]{2,3}$/.test(primary)) return false;
  return primary.length === 3 || knownLanguages.of(primary) !== undefined;
}

/** The PDF checks on one document's facts. */
export function checkPdf(facts: PdfFacts, report: Report): void {
  const first = (pages: readonly (number | undefined)[]) => pages.find((page) => page !== undefined);
  const at = (page: number | undefined) => (page === undefined ? {} : { page });

  const undescribed = facts.figures.filter((figure) => !figure.described);
  if (undescribed.length > 0) {
    const pages = undescribed.flatMap((figure) => (figure.page === undefined ? [] : [figure.page]));
    report('doc.pdf-figure-no-alt', msg('finding.doc.pdf-figure-no-alt', { count: undescribed.length, pages: pageList(pages) }), { count: undescribed.length, ...at(first(pages)) });
  }

  // A table of one row has nothing for headers to name; from two rows on, a screen reader needs them.
  const headless = facts.tables.filter((table) => !table.headers && table.rows >= 2);
  if (headless.length > 0) {
    const pages = headless.flatMap((table) => (table.page === undefined ? [] : [table.page]));
    report('doc.pdf-table-no-headers', msg('finding.doc.pdf-table-no-headers', { count: headless.length, pages: pageList(pages) }), { count: headless.length, ...at(first(pages)) });
  }

  const headings = headingProblems(facts.headings, true);
  if (headings.length > 0) {
    const [problem] = headings;
    report('doc.heading-skip', msg('finding.doc.heading-skip', { type: 'pdf', from: problem!.from, to: problem!.to, count: headings.length }), {
      count: headings.length,
      ...at(problem!.page),
    });
  }

  const untagged = facts.pageText.filter((page) => page.untaggedChars > 0);
  if (untagged.reduce((sum, page) => sum + page.untaggedChars, 0) >= MIN_UNTAGGED_CHARS) {
    const pages = untagged.map((page) => page.page);
    report('doc.pdf-untagged-content', msg('finding.doc.pdf-untagged-content', { count: pages.length, pages: pageList(pages) }), { count: pages.length, page: pages[0]! });
  }

  // In an untagged PDF every link is outside the tags: doc.pdf-untagged says what to do for all of them.
  const badLinks = facts.linkAnnotations.filter((link) => {
    if (link.tagged === null) return false;
    const named = link.contents || link.elementDescribed || (link.text !== undefined && !BARE_ADDRESS.test(link.text));
    return !link.tagged || !named;
  });
  if (badLinks.length > 0) {
    const pages = badLinks.map((link) => link.page);
    const untaggedLinks = badLinks.filter((link) => !link.tagged).length;
    report('doc.pdf-link-no-description', msg('finding.doc.pdf-link-no-description', { count: badLinks.length, untagged: untaggedLinks, pages: pageList(pages) }), {
      count: badLinks.length,
      page: pages[0]!,
    });
  }

  const unnamed = facts.formFields.filter((field) => !field.described);
  if (unnamed.length > 0) {
    const pages = unnamed.map((field) => field.page);
    report('doc.pdf-field-no-name', msg('finding.doc.pdf-field-no-name', { count: unnamed.length, pages: pageList(pages) }), { count: unnamed.length, page: pages[0]! });
  }

  // Without a title there is nothing to show: doc.no-title says so.
  if (facts.title !== null && facts.displayDocTitle === false) report('doc.pdf-title-not-shown', msg('finding.doc.pdf-title-not-shown'));

  if (facts.accessibilityBlocked === true) report('doc.pdf-encryption-blocks-at', msg('finding.doc.pdf-encryption-blocks-at'));
  if (facts.dynamicXfa) report('doc.pdf-xfa', msg('finding.doc.pdf-xfa'));

  const notEmbedded = facts.fonts.filter((font) => !font.embedded && !font.standard && font.visible === true);
  if (notEmbedded.length > 0) {
    const names = notEmbedded.map((font) => `"${font.name || '?'}"`).slice(0, 3).join(', ');
    report('doc.pdf-font-not-embedded', msg('finding.doc.pdf-font-not-embedded', { count: notEmbedded.length, names }), {
      count: notEmbedded.length,
      page: Math.min(...notEmbedded.map((font) => font.page)),
    });
  }

  // Text that maps to nothing readable: a font whose codes have no Unicode mapping at all, on a page
  // where pdf.js found text, or a page whose extracted text is largely unreadable characters.
  const withText = new Set(facts.pageText.filter((page) => page.chars > 0).map((page) => page.page));
  const unmapped = new Set<number>();
  for (const font of facts.fonts) if (font.unicode === false && withText.has(font.page)) unmapped.add(font.page);
  for (const page of facts.pageText) {
    if (page.unmappedChars >= MIN_UNMAPPED_CHARS && page.unmappedChars >= page.chars * UNMAPPED_SHARE) unmapped.add(page.page);
  }
  if (unmapped.size > 0) {
    const pages = [...unmapped].sort((a, b) => a - b);
    report('doc.pdf-text-unmapped', msg('finding.doc.pdf-text-unmapped', { count: pages.length, pages: pageList(pages) }), { count: pages.length, page: pages[0]! });
  }

  if (facts.shortfalls.length > 0) {
    const reasons = [...new Set(facts.shortfalls.map((shortfall) => (shortfall === 'objects-unreadable' ? 'unreadable' : shortfall === 'resources-size' ? 'size' : shortfall.slice('structure-'.length))))];
    report('doc.not-fully-checked', msg('finding.doc.not-fully-checked', { reason: reasons[0]! }));
  }
}
