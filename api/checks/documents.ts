// Document checks: what a course builder must fix in a PDF, Word or PowerPoint file for every
// student to read it (tags, real text, title, language, alternative text, headings, slide titles),
// placeholder text left in it, and the links inside it, handed to the same link checks as a page's.
import { msg } from '../i18n/messages.ts';
import { isFileNameText } from './accessibility.ts';
import { finding } from './catalogue.ts';
import { placeholderFinding, placeholdersIn } from './content.ts';
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
  const at = (check: Parameters<typeof finding>[0], message: Parameters<typeof finding>[3], details: Partial<Finding> = {}) =>
    findings.push(finding(check, place, documentUrl, message, { subject: `${check}:${documentUrl}`, ...details }));
  const type = TYPE_NAME[facts.type];

  if (facts.type === 'pdf') {
    if (!facts.tagged) at('doc.pdf-untagged', msg('finding.doc.pdf-untagged'));
    // Half the pages or more without text: a scan. A blank page or two in a text PDF is not one.
    const textless = facts.textlessPages;
    if (textless.length > 0 && textless.length * 2 >= facts.pagesRead) {
      at('doc.pdf-scanned', msg('finding.doc.pdf-scanned', { count: textless.length, pages: facts.pagesRead }), { page: textless[0]!, count: textless.length });
    }
  }
  if (facts.title === null) at('doc.no-title', msg('finding.doc.no-title', { type }));
  if (facts.language === null) at('doc.no-language', msg('finding.doc.no-language', { type }));

  if (facts.type === 'docx' || facts.type === 'pptx') {
    const missing = facts.images.filter(needsAltText);
    // One finding per slide (the place to fix them), one for a Word file, which has no fixed pages.
    const bySlide = new Map<number | undefined, DocumentImage[]>();
    for (const image of missing) bySlide.set(image.page, [...(bySlide.get(image.page) ?? []), image]);
    for (const [page, images] of bySlide) {
      const names = images.map((image) => `"${image.name || '?'}"`).slice(0, 3).join(', ');
      at('doc.image-no-alt', msg('finding.doc.image-no-alt', { count: images.length, names }), {
        count: images.length,
        subject: `doc.image-no-alt:${documentUrl}:${page ?? ''}`,
        ...(page === undefined ? {} : { page }),
      });
    }
  }
  if (facts.type === 'docx' && facts.headings === 0 && facts.words > HEADINGS_NEEDED_FROM_WORDS) {
    at('doc.no-headings', msg('finding.doc.no-headings', { words: facts.words }));
  }
  if (facts.type === 'pptx') {
    for (const slide of facts.untitledSlides) {
      at('doc.slide-no-title', msg('finding.doc.slide-no-title', { slide }), { page: slide, subject: `doc.slide-no-title:${documentUrl}:${slide}` });
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
