// How a finding reads for a person, the same in the HTML report and the CSV: its title, severity,
// where it is (link text, element, page, item) in plain words, how to fix it, and what its address
// is. Every text comes from the report's language; course text is returned as is (writers escape).
import { DomUtils, parseDocument } from 'htmlparser2';
import { axeRuleAdvice, checkTitle } from '../checks/catalogue.ts';
import { isMessage, msg, type MessageId, translator } from '../i18n/messages.ts';
import { bcp47Of, type Language } from '../i18n/languages.ts';
import type { Report, ReportFinding, ReportNotScanned } from './model.ts';

export type Translate = ReturnType<typeof translator>;

/** The writers' view of one language: messages, check titles and lists. */
export interface Presenter {
  language: Language;
  t: Translate;
  title(check: string): string;
  /** "a, b and c" in the language. */
  list(items: string[]): string;
  /**
   * Course text put into a sentence, isolated from it for the bidirectional algorithm when the
   * writer asks (an English title in an Arabic sentence, or the other way round, keeps its order).
   */
  value(text: string): string;
}

/**
 * Where course text starts and ends inside a sentence, for the HTML writer to isolate it with
 * <bdi> (two private-use characters no message uses). Isolate characters (FSI…PDI) would do the
 * same but stay in the text a person copies out of the report.
 */
export const ISOLATE_START = '\uE002';
export const ISOLATE_END = '\uE003';
const ISOLATE_MARKS = /[\uE002\uE003]/g;

/** `isolate`: mark course text for the HTML writer (a spreadsheet cell wants it bare). */
export function presenterFor(language: Language, { isolate = false } = {}): Presenter {
  const t = translator(language);
  const lists = new Intl.ListFormat(bcp47Of(language), { type: 'conjunction' });
  return {
    language,
    t,
    title: (check) => checkTitle(check, language),
    list: (items) => lists.format(items),
    value: isolate ? (text) => `${ISOLATE_START}${text.replace(ISOLATE_MARKS, '')}${ISOLATE_END}` : (text) => text,
  };
}

export function severityLabel(p: Presenter, finding: Pick<ReportFinding, 'severity' | 'review'>): string {
  if (finding.review === true) return p.t('report.severity.review');
  return p.t(`report.severity.${finding.severity}`);
}

/**
 * "How to fix" for a check: its own advice, else axe's description of its rule (in the language
 * where axe has it), else the advice for any axe rule, else none. The same wherever the thing is.
 */
export function fixOf(p: Presenter, check: string): string | null {
  const own = msg(`fix.${check}` as MessageId);
  if (isMessage(own)) return p.t(own);
  const axe = axeRuleAdvice(check, p.language);
  if (axe !== undefined) return axe;
  if (check.startsWith('a11y.')) return p.t('fix.a11y-rule');
  return null;
}

// Findings about what is written in an item (a link, an element, a text): fixed where it is written.
const WRITTEN_FAMILIES = new Set(['link', 'a11y', 'content', 'media']);

/**
 * "How to fix" one finding: where to make the change, for what lives in a page, a PDF, a Word file,
 * a PowerPoint slide or an activity's settings, then the check's advice.
 */
export function fixFor(p: Presenter, finding: Pick<ReportFinding, 'check' | 'itemType' | 'topicId' | 'moduleId' | 'document' | 'element' | 'page'>): string | null {
  const advice = fixOf(p, finding.check);
  // Not for what is checked by hand (a link the site would not let CTPO verify) nor for a link or
  // quicklink topic, whose advice already says to point the topic elsewhere.
  if (advice === null || !WRITTEN_FAMILIES.has(finding.check.split('.')[0]!) || finding.check === 'link.unverifiable' || finding.element === 'topic') return advice;
  const where = p.t('report.fix.where', { place: documentKindOf(finding) ?? tagKey(finding.itemType) });
  return `${where} ${advice}`;
}

/** The kind of document a finding was found in, or none for a page or an activity. */
export function documentKindOf(finding: Pick<ReportFinding, 'document' | 'element'>): DocumentKind | undefined {
  const tag = finding.element?.trim().split(/\s+/)[0]?.toLowerCase();
  if (tag === 'pdf' || tag === 'docx' || tag === 'pptx') return tag;
  const extension = fileName(finding.document)?.split('.').pop()?.toLowerCase();
  return extension === 'pdf' || extension === 'docx' || extension === 'pptx' ? extension : undefined;
}

type DocumentKind = 'pdf' | 'docx' | 'pptx';

/** A link inside a document, as the document readers name it (checks/documents.ts): not an HTML element. */
const DOCUMENT_LINK = /^(pdf|docx|pptx)\s/i;

// Select keys cannot hold "-"; h1-h6 read as one "heading".
function tagKey(tag: string): string {
  return /^h[1-6]$/.test(tag) ? 'h' : tag.replaceAll('-', '_');
}

function fileName(address: string | undefined): string | null {
  if (!address) return null;
  const last = address.split(/[?#]/)[0]?.split('/').filter(Boolean).pop();
  if (!last) return null;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function shorten(text: string, max = 80): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/**
 * An element in words: "image “wetland.png”", "link “Reading list”". `element` is either an
 * element's HTML (axe's example) or a tag with the attribute an address was in (`a href`).
 */
export function describeElement(p: Presenter, element: string, linkText?: string): string {
  const snippet = element.trim().startsWith('<');
  let tag: string;
  let name: string | null = linkText === undefined || linkText === '' ? null : linkText;
  if (snippet) {
    const first = DomUtils.findOne(() => true, parseDocument(element, { lowerCaseTags: true, lowerCaseAttributeNames: true }).children, true);
    if (first === null) return shorten(element);
    tag = first.name;
    const { alt, title, src, href, name: fieldName, id } = first.attribs;
    name ??= [alt, DomUtils.textContent(first), title, fieldName, fileName(src), fileName(href), id].map((value) => (value === undefined || value === null ? '' : shorten(value))).find((value) => value !== '') ?? null;
  } else {
    tag = element.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    // A link topic's or quicklink's own address: the topic is the link.
    if (tag === 'topic') return p.t('report.where.topic-link');
  }
  const kind = p.t('report.element', { tag: tagKey(tag) });
  return name === null ? kind : p.t('report.element.named', { element: kind, name: p.value(name) });
}

/**
 * Where the finding is within its item, as separate parts ("link “Marking guide” on page 1 of the
 * PDF “rubric.pdf”", "slide 3", "3 times on the page"), each worded for the kind of place: a page
 * of a PDF, a slide of a presentation, a Word file (which has no fixed pages).
 */
export function whereParts(p: Presenter, finding: ReportFinding): string[] {
  const parts: string[] = [];
  const document = documentKindOf(finding);
  const element = finding.element?.trim() ?? '';
  let thing: string | null = null;
  if (element !== '' && DOCUMENT_LINK.test(element)) thing = describeElement(p, 'a', finding.linkText);
  else if (element !== '') thing = describeElement(p, element, finding.linkText);
  else if (finding.linkText !== undefined && finding.linkText !== '') thing = p.t('report.where.link-text', { text: p.value(finding.linkText) });

  const inOther = finding.document !== undefined && finding.document !== finding.url;
  const file = finding.document === undefined ? '' : p.value(fileName(finding.document) ?? finding.document);
  // A page only where the format has them: a PDF's page, a presentation's slide; Word has none.
  const position = finding.page === undefined || document === 'docx' ? undefined : finding.page;
  if (inOther) {
    const kind = document ?? 'other';
    const place = position === undefined ? p.t('report.where.in-document', { kind, file }) : p.t('report.where.in-document-at', { kind: kind === 'pptx' ? 'pptx' : 'pdf', file, page: position });
    parts.push(thing === null ? place : p.t('report.where.thing-in', { thing, place }));
  } else {
    if (thing !== null) parts.push(thing);
    if (position !== undefined) parts.push(p.t(document === 'pptx' ? 'report.where.slide' : 'report.where.pdf-page', { page: position }));
  }
  if (finding.question !== undefined) parts.push(p.t('report.where.question', { number: finding.question }));
  if (finding.frame !== undefined) parts.push(p.t('report.where.frame', { frame: p.value(finding.frame) }));
  if (finding.count !== undefined && finding.count > 1 && !finding.check.startsWith('doc.')) {
    parts.push(document === undefined ? p.t('report.where.count', { count: finding.count }) : p.t('report.where.count-in-document', { count: finding.count }));
  }
  if (finding.itemType !== 'topic' && finding.itemType !== 'module' && finding.topicId !== null && finding.itemTitle) {
    parts.push(p.t('report.where.item', { type: tagKey(finding.itemType), title: p.value(finding.itemTitle) }));
  }
  return parts;
}

/**
 * The element and attribute an address was written in (`img srcset`, `div style url()`), as the
 * author meets it in the HTML editor; none for an element's HTML, which is shown apart.
 */
export function elementCode(finding: Pick<ReportFinding, 'element'>): string | null {
  const element = finding.element?.trim();
  // A link inside a document and a topic's own address are not written in HTML: nothing to show.
  if (element === undefined || element === '' || element === 'topic' || DOCUMENT_LINK.test(element)) return null;
  return element.startsWith('<') || element.length > 60 ? null : element;
}

const EMBEDDING_ATTRIBUTES = new Set(['src', 'srcset', 'poster', 'data', 'background', 'style']);
const EMBEDDING_TAGS = new Set(['img', 'video', 'audio', 'source', 'track', 'iframe', 'embed', 'object', 'script', 'link', 'style', 'input', 'picture']);

/**
 * What the finding's address is: where a link goes, a file the page loads, a video, a document, or
 * the page itself. A finding about an element names it by tag and attribute (`a href`, `img alt`),
 * and its address is then that element's; otherwise it is the page's (axe's findings).
 */
export function addressLabel(p: Presenter, finding: Pick<ReportFinding, 'check' | 'element' | 'url' | 'document'>): string {
  const [family] = finding.check.split('.');
  // A finding about a document itself (its text, its images) has the document's address.
  if (finding.document !== undefined && finding.document === finding.url) return p.t('report.address.document');
  const element = finding.element?.trim();
  const tag = element === undefined || element === '' || element.startsWith('<') ? undefined : element.split(/\s+/)[0]!.toLowerCase();
  if (family === 'media' || tag === 'video') return p.t('report.address.media');
  const attribute = element?.split(/\s+/)[1]?.toLowerCase();
  const embedded = (tag !== undefined && EMBEDDING_TAGS.has(tag)) || (attribute !== undefined && EMBEDDING_ATTRIBUTES.has(attribute)) || (tag !== undefined && element!.includes('url('));
  if (embedded) return p.t('report.address.embedded');
  if (tag !== undefined || family === 'link') return p.t('report.address.link');
  if (family === 'doc') return p.t('report.address.document');
  if (family === 'a11y' || family === 'content' || family === 'structure') return p.t('report.address.page');
  return p.t('report.address.other');
}

export function moduleTitle(p: Presenter, id: number | null, title: string | null): string {
  return title !== null && title.trim() !== '' ? title : p.t('report.module.untitled', { id: String(id ?? '') });
}

export function topicTitle(p: Presenter, id: number | null, title: string | null): string {
  return title !== null && title.trim() !== '' ? title : p.t('report.topic.untitled', { id: String(id ?? '') });
}

/** The item's own name, for course-wide items and items behind a topic. */
export function itemTitle(p: Presenter, entry: Pick<ReportFinding, 'itemId' | 'itemTitle'>): string {
  return entry.itemTitle !== null && entry.itemTitle.trim() !== '' ? entry.itemTitle : p.t('report.item.untitled', { id: String(entry.itemId ?? '') });
}

export function itemHeading(p: Presenter, entry: Pick<ReportFinding, 'itemType' | 'itemId' | 'itemTitle'>): string {
  return p.t('report.item-heading', { type: tagKey(entry.itemType), title: p.value(itemTitle(p, entry)) });
}

/** "Found 3 errors, 1 warning and 2 notes in 11 of 15 topics.", as the app's monitor says it. */
export function summarySentences(p: Presenter, report: Pick<Report, 'totals'>): string[] {
  const { totals } = report;
  const counts = (['error', 'warning', 'info'] as const).filter((severity) => totals.findings[severity] > 0).map((severity) => p.t(`report.count.${severity}`, { count: totals.findings[severity] }));
  const sentences = [
    counts.length === 0
      ? p.t('report.summary.clean', { scanned: totals.scanned, topics: totals.topics })
      : p.t('report.summary.found', { list: p.list(counts), scanned: totals.scanned, topics: totals.topics }),
  ];
  if (totals.notScanned > 0) sentences.push(p.t('report.summary.not-scanned', { count: totals.notScanned }));
  if (totals.review > 0) sentences.push(p.t('report.summary.review', { count: totals.review }));
  return sentences;
}

/** The place a finding or not-scanned item is listed under, for anchors and grouping. */
export function placeKey(entry: Pick<ReportFinding | ReportNotScanned, 'moduleId' | 'topicId' | 'itemType' | 'itemId'>): string {
  if (entry.topicId !== null) return `topic-${entry.topicId}`;
  if (entry.moduleId !== null) return `module-${entry.moduleId}`;
  return `item-${entry.itemType}-${entry.itemId ?? 'none'}`;
}
