// Document checks: what a course builder must fix in a PDF, Word or PowerPoint file for every
// student to read it (tags, real text, title, language, alternative text, headings, slide titles),
// placeholder text left in it, and the links inside it, handed to the same link checks as a page's.
import { msg } from '../i18n/messages.ts';
import { isFileNameText } from './accessibility.ts';
import { finding } from './catalogue.ts';
import { placeholderFinding, placeholdersIn } from './content.ts';
import { checkPdf, headingProblems, isValidLanguageTag, type Report } from './pdf-documents.ts';
import type { DocumentFacts, DocumentImage, DocumentType } from '../extract/document-facts.ts';
import type { Finding } from './finding.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import { resolveAddress, type LinkOccurrence } from '../extract/html.ts';

/** Word's headings matter past this length: a reader of a longer text needs them to find their way. */
export const HEADINGS_NEEDED_FROM_WORDS = 1500;

/** The element a link inside a document is reported as. */
const LINK_ELEMENT: Record<DocumentType, string> = { pdf: 'pdf link', docx: 'docx hyperlink', pptx: 'pptx hyperlink' };

const TYPE_NAME: Record<DocumentType, 'pdf' | 'word' | 'powerpoint'> = { pdf: 'pdf', docx: 'word', pptx: 'powerpoint' };

// The name an editor gives a shape, copied into its description by some tools: not a description.
const SHAPE_NAME = /^(picture|image|graphic|chart|diagram|grafik|imagen|bild)\s*\d*$/i;

/** True when an image has no alternative text a screen reader could speak, and is not decorative. */
export function needsAltText(image: DocumentImage): boolean {
  if (image.decorative) return false;
  if (image.alt === null) return true;
  const lastSegment = image.alt.split(/[\\/]/).pop() ?? image.alt;
  return isFileNameText(lastSegment) || SHAPE_NAME.test(image.alt.trim()) || image.alt.trim() === image.name.trim();
}

export interface DocumentCheckResult {
  findings: Finding[];
  /** The document's links, each address once, for the link checks. */
  links: LinkOccurrence[];
}

/**
 * Checks a document read at `documentUrl`. Its findings belong to `place` (its own topic, or the page
 * that links to it) and carry the document's address as their `url`.
 */
export function checkDocument(facts: DocumentFacts, place: ItemPlace, documentUrl: string, orgUnitId: number): DocumentCheckResult {
  const findings: Finding[] = [];
  const at: Report = (check, message, details = {}) => findings.push(finding(check, place, documentUrl, message, { subject: `${check}:${documentUrl}`, ...details }));
  const type = TYPE_NAME[facts.type];

  if (facts.type === 'pdf') {
    if (!facts.tagged) at('doc.pdf-untagged', msg('finding.doc.pdf-untagged'));
    // Half the pages or more carry an image and no text: a scan. A blank page or two in a text PDF is
    // not one, nor is a near-empty page without an image, nor a page whose CID-keyed font pdf.js
    // cannot read but whose mapping to Unicode says it has text.
    const unread = new Set(facts.unreadTextPages);
    const images = new Set(facts.imagePages);
    const scanned = facts.textlessPages.filter((page) => images.has(page) && !unread.has(page));
    if (scanned.length > 0 && scanned.length * 2 >= facts.pagesRead) {
      at('doc.pdf-scanned', msg('finding.doc.pdf-scanned', { count: scanned.length, pages: facts.pagesRead }), { page: scanned[0]!, count: scanned.length });
    }
  }
  if (facts.title === null) at('doc.no-title', msg('finding.doc.no-title', { type }));
  // PDF/UA accepts a PDF without a document language when each piece of its text carries its own.
  if (facts.language === null && !(facts.type === 'pdf' && facts.textLanguages)) at('doc.no-language', msg('finding.doc.no-language', { type }));
  const tags = facts.type === 'pdf' ? [...(facts.language === null ? [] : [{ tag: facts.language }]), ...facts.languageTags] : facts.language === null ? [] : [{ tag: facts.language }];
  const invalid = [...new Map(tags.filter(({ tag }) => !isValidLanguageTag(tag)).map((entry) => [entry.tag, entry])).values()];
  if (invalid.length > 0) {
    at('doc.invalid-language', msg('finding.doc.invalid-language', { type, tags: invalid.map(({ tag }) => `"${tag}"`).slice(0, 3).join(', '), count: invalid.length }), {
      count: invalid.length,
      ...(invalid[0]!.page === undefined ? {} : { page: invalid[0]!.page }),
    });
  }
  if (facts.type === 'pdf') checkPdf(facts, at);

  if (facts.type === 'docx' || facts.type === 'pptx') {
    const missing = facts.images.filter(needsAltText);
    // One finding per slide (the place to fix them), one for a Word file, which has no fixed pages;
    // pictures apart from charts and diagrams, whose alternative text is set elsewhere.
    for (const check of ['doc.image-no-alt', 'doc.chart-no-alt'] as const) {
      const bySlide = new Map<number | undefined, DocumentImage[]>();
      for (const image of missing) {
        if ((image.kind === undefined) !== (check === 'doc.image-no-alt')) continue;
        bySlide.set(image.page, [...(bySlide.get(image.page) ?? []), image]);
      }
      for (const [page, images] of bySlide) {
        const names = images.map((image) => `"${image.name || '?'}"`).slice(0, 3).join(', ');
        at(check, msg(`finding.${check}`, { count: images.length, names }), {
          count: images.length,
          subject: `${check}:${documentUrl}:${page ?? ''}`,
          ...(page === undefined ? {} : { page }),
        });
      }
    }
  }
  if (facts.type === 'docx') {
    if (facts.headings === 0 && facts.words > HEADINGS_NEEDED_FROM_WORDS) at('doc.no-headings', msg('finding.doc.no-headings', { words: facts.words }));
    // Word files often open with a Heading 2 under a Title: only a skip down the levels is flagged.
    const skips = headingProblems(facts.headingLevels, false);
    if (skips.length > 0) {
      at('doc.heading-skip', msg('finding.doc.heading-skip', { type, from: skips[0]!.from, to: skips[0]!.to, count: skips.length }), { count: skips.length });
    }
    // A table of one row or one column has nothing for a header row to name.
    const headless = facts.tables.filter((table) => !table.headerRow && table.rows >= 2 && table.columns >= 2);
    if (headless.length > 0) at('doc.table-no-header-row', msg('finding.doc.table-no-header-row', { count: headless.length }), { count: headless.length });
  }
  if (facts.type === 'pptx') {
    for (const slide of facts.untitledSlides) {
      at('doc.slide-no-title', msg('finding.doc.slide-no-title', { slide }), { page: slide, subject: `doc.slide-no-title:${documentUrl}:${slide}` });
    }
    for (const slide of facts.titleNotFirstSlides) {
      at('doc.slide-reading-order', msg('finding.doc.slide-reading-order', { slide }), { page: slide, subject: `doc.slide-reading-order:${documentUrl}:${slide}` });
    }
  }

  // A limit that stopped the reading: what was read is judged, and the report says the rest was not.
  if (facts.type === 'pdf' && facts.pagesRead < facts.pages) {
    at('doc.limit-reached', msg('finding.doc.limit-reached', { limit: 'pages', total: facts.pages, max: facts.pagesRead }));
  }
  if (facts.type !== 'pdf') {
    for (const shortfall of facts.shortfalls) {
      at('doc.limit-reached', msg('finding.doc.limit-reached', { limit: shortfall.limit, max: shortfall.max, ...(shortfall.limit === 'slides' ? { total: shortfall.total } : {}) }), {
        subject: `doc.limit-reached:${documentUrl}:${shortfall.limit}`,
      });
    }
  }

  // Placeholder text: one finding for the document, on the first page or slide that has some.
  const found = new Set<string>();
  let firstPage: number | undefined;
  for (const part of facts.text) {
    const here = placeholdersIn(part.text);
    if (here.length > 0 && found.size === 0) firstPage = part.page;
    for (const text of here) found.add(text);
  }
  if (found.size > 0) {
    findings.push(placeholderFinding([...found], place, documentUrl, { subject: `content.placeholder:${documentUrl}`, ...(firstPage === undefined ? {} : { page: firstPage }) }, true));
  }

  return { findings, links: documentLinks(facts, documentUrl, orgUnitId) };
}

/** The links of a document as link occurrences: resolved against its address, each address once. */
export function documentLinks(facts: DocumentFacts, documentUrl: string, orgUnitId: number): LinkOccurrence[] {
  const base = new URL(documentUrl);
  const byAddress = new Map<string, LinkOccurrence>();
  for (const link of facts.links) {
    const url = resolveAddress(link.raw, base, orgUnitId);
    if (url === undefined) continue;
    const key = url ?? `invalid:${link.raw}`;
    const existing = byAddress.get(key);
    if (existing) {
      existing.count = (existing.count ?? 1) + 1;
      continue;
    }
    byAddress.set(key, {
      raw: link.raw,
      url,
      element: LINK_ELEMENT[facts.type],
      embedded: false,
      ...(link.text === undefined ? {} : { text: link.text }),
      ...(link.page === undefined ? {} : { page: link.page }),
    });
  }
  return [...byAddress.values()];
}
