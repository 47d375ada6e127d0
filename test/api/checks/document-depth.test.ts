// The document checks past tags, title and language, on real files (test/fixtures/documents, made
// by scripts/make-document-fixtures.ts from ISO 14289-1's failure conditions with pdf-lib and
// LibreOffice), read by the real document worker: each check flags the file made to fail it, on its
// page, and leaves its passing look-alike alone; hostile structure trees end within the limits.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { documentTypeOf, type DocumentFacts, type PdfFacts } from '../../../api/extract/document-facts.ts';
import { DocumentRunner } from '../../../api/extract/document-runner.ts';
import { checkDocument } from '../../../api/checks/documents.ts';
import { CHECKS } from '../../../api/checks/catalogue.ts';
import { headingProblems, isValidLanguageTag, pageList } from '../../../api/checks/pdf-documents.ts';
import type { Finding } from '../../../api/checks/finding.ts';
import type { ItemPlace } from '../../../api/brightspace/places.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';

const FIXTURES = new URL('../../fixtures/documents/', import.meta.url);
const ORG_UNIT = 7300;
const place: ItemPlace = { moduleId: 1, moduleTitle: 'Week 1', topicId: 11, topicTitle: 'Readings', itemType: 'topic', itemId: 11, itemTitle: 'Readings' };
const runner = new DocumentRunner();

afterAll(() => runner.close());

const urlOf = (name: string) => `https://school.example/content/enforced/${ORG_UNIT}-BIO/week1/${name}`;

async function facts(name: string, reader = runner): Promise<DocumentFacts> {
  const result = await reader.read(documentTypeOf(name)!, readFileSync(new URL(name, FIXTURES)));
  if (!result.ok) throw new Error(`${name} could not be read: ${JSON.stringify(result.failure)}`);
  return result.facts;
}

async function pdf(name: string, reader = runner): Promise<PdfFacts> {
  const read = await facts(name, reader);
  if (read.type !== 'pdf') throw new Error(`${name} is not a PDF`);
  return read;
}

async function findings(name: string): Promise<Finding[]> {
  return checkDocument(await facts(name), place, urlOf(name), ORG_UNIT).findings;
}

/** Findings as `check@page`. */
const ids = (found: Finding[]) => found.map((finding) => (finding.page === undefined ? finding.check : `${finding.check}@${finding.page}`)).sort();
const text = (found: Finding[], check: string) => formatMessage(found.find((finding) => finding.check === check)!.message);

describe('PDF/UA failure conditions, each beside a passing look-alike', () => {
  it.each([
    ['figures and formulas without Alt or ActualText (7.3, 7.7)', 'pdfua-figure-no-alt.pdf', 'pdfua-figure-alt.pdf', ['doc.pdf-figure-no-alt@1']],
    ['tables without header cells (7.5)', 'pdfua-table-no-headers.pdf', 'pdfua-table-headers.pdf', ['doc.pdf-table-no-headers@1']],
    ['headings that skip a level (7.4.2)', 'pdfua-headings-skip.pdf', 'pdfua-headings-ordered.pdf', ['doc.heading-skip@2']],
    ['headings that do not start at H1 (7.4.2)', 'pdfua-headings-start-h2.pdf', 'pdfua-headings-ordered.pdf', ['doc.heading-skip@1']],
    ['text neither tagged nor an artifact (7.1)', 'pdfua-untagged-content.pdf', 'pdfua-artifacts.pdf', ['doc.pdf-untagged-content@1']],
    ['links read as a bare address, or not tagged as links (7.18.5)', 'pdfua-links-bare.pdf', 'pdfua-links.pdf', ['doc.pdf-link-no-description@1']],
    ['form fields without a tooltip (TU, 7.18.4)', 'pdfua-field-unnamed.pdf', 'pdfua-field-named.pdf', ['doc.pdf-field-no-name@1']],
    ['the title not shown in the title bar (7.1)', 'pdfua-title-not-shown.pdf', 'pdfua-title-shown.pdf', ['doc.pdf-title-not-shown']],
    ['a language tag that is not BCP 47', 'pdfua-language-invalid.pdf', 'pdfua-title-shown.pdf', ['doc.invalid-language']],
    ['text without a language anywhere (7.2)', 'pdfua-language-partial.pdf', 'pdfua-language-per-element.pdf', ['doc.no-language']],
    ['text without a language anywhere, beside text whose marked content carries it', 'pdfua-language-partial.pdf', 'pdfua-language-marked-content.pdf', ['doc.no-language']],
    ['dynamic XFA (7.15), not a static XFA form', 'pdfua-xfa-dynamic.pdf', 'pdfua-xfa-static.pdf', ['doc.pdf-xfa']],
    ['a font not embedded that draws visible text (7.21.4), not one drawn invisibly', 'pdfua-font-not-embedded.pdf', 'pdfua-font-invisible.pdf', ['doc.pdf-font-not-embedded@1']],
    ['text whose CID font maps to no Unicode (7.21.7)', 'pdfua-text-unmapped.pdf', 'pdfua-cid-embedded.pdf', ['doc.pdf-text-unmapped@1']],
  ])('flags %s', async (_condition, failing, passing, expected) => {
    expect(ids(await findings(failing))).toEqual(expected);
    expect(await findings(passing)).toEqual([]);
  });

  it('flags encryption that bars assistive technology (7.16), not one that only restricts editing', async () => {
    const locked = await pdf('pdfua-encryption-blocks-at.pdf');
    expect(locked.accessibilityBlocked).toBe(true);
    expect(ids(checkDocument(locked, place, urlOf('locked.pdf'), ORG_UNIT).findings)).toEqual(['doc.pdf-encryption-blocks-at']);
    expect(await pdf('restricted.pdf')).toMatchObject({ accessibilityBlocked: false });
    expect(await pdf('tagged.pdf')).toMatchObject({ accessibilityBlocked: null });
  });

  it('says where and how many, in words an author acts on', async () => {
    const figures = await findings('pdfua-figure-no-alt.pdf');
    expect(figures[0]).toMatchObject({ severity: 'error', count: 2, page: 1 });
    expect(text(figures, 'doc.pdf-figure-no-alt')).toMatch(/^2 figures and formulas have no alternative text \(page 1\).*Edit Alt Text/);
    expect(text(await findings('pdfua-headings-skip.pdf'), 'doc.heading-skip')).toMatch(/^In this PDF, the headings skip from level 2 to level 4, /);
    expect(text(await findings('pdfua-headings-start-h2.pdf'), 'doc.heading-skip')).toMatch(/^In this PDF, the first heading is level 2, not level 1, /);
    expect(text(await findings('pdfua-links-bare.pdf'), 'doc.pdf-link-no-description')).toMatch(/^2 links \(page 1\): not tagged as a link, or no description/);
    expect(text(await findings('pdfua-language-invalid.pdf'), 'doc.invalid-language')).toContain('("english", "fr_CA")');
    expect(text(await findings('pdfua-font-not-embedded.pdf'), 'doc.pdf-font-not-embedded')).toMatch(/^1 font is not embedded in this PDF \("Calibri"\)/);
  });

  it('accepts a PDF without a document language when each piece of its text carries its own', async () => {
    const perElement = await pdf('pdfua-language-per-element.pdf');
    expect(perElement).toMatchObject({ language: null, textLanguages: true });
    expect(await pdf('pdfua-language-marked-content.pdf')).toMatchObject({ language: null, textLanguages: true });
    expect((await pdf('pdfua-language-partial.pdf')).textLanguages).toBe(false);
    // An untagged PDF carries no language but the document's.
    expect((await pdf('untagged.pdf')).textLanguages).toBe(false);
  });

  it('reads what each link, field and figure is from the tags and the annotations', async () => {
    expect((await pdf('pdfua-links.pdf')).linkAnnotations).toEqual([
      { page: 1, contents: true, tagged: true, elementDescribed: false, text: 'Weekly reading' },
      { page: 1, contents: false, tagged: true, elementDescribed: false, text: 'Field notebook guide' },
    ]);
    expect((await pdf('pdfua-figure-alt.pdf')).figures.map(({ role, described }) => `${role}:${described}`)).toEqual(['Figure:true', 'Formula:true', 'Figure:true', 'Figure:true']);
    expect((await pdf('pdfua-table-headers.pdf')).tables).toEqual([{ rows: 3, headers: true, page: 1 }, { rows: 3, headers: true, page: 1 }, { rows: 3, headers: true, page: 1 }]);
    // A one-row table needs no headers; a real table without them is flagged once.
    expect((await pdf('pdfua-table-no-headers.pdf')).tables.map((table) => `${table.rows}:${table.headers}`)).toEqual(['3:false', '1:false']);
  });
});

describe('scans', () => {
  it('does not call a near-empty page without an image a scan', async () => {
    const nearEmpty = await pdf('pdfua-near-empty.pdf');
    expect(nearEmpty).toMatchObject({ textlessPages: [2], imagePages: [] });
    expect(checkDocument(nearEmpty, place, urlOf('near-empty.pdf'), ORG_UNIT).findings).toEqual([]);
  });

  it('does not call a page of Japanese in a CID-keyed font a scan, although pdf.js reads no text from it', async () => {
    const japanese = await pdf('pdfua-cid-japan1.pdf');
    // pdf.js reads nothing from this font (Adobe-Japan1, UniJIS-UCS2-H, not embedded, no ToUnicode)...
    expect(japanese.text).toEqual([]);
    expect(japanese.fonts).toEqual([expect.objectContaining({ name: 'KozMinPr6N-Regular', composite: true, unicode: true })]);
    // ...but the page has a photo and a font whose codes map to Unicode: text, not a scan.
    expect(japanese).toMatchObject({ textlessPages: [1], imagePages: [1], unreadTextPages: [1] });
    expect(checkDocument(japanese, place, urlOf('japanese.pdf'), ORG_UNIT).findings).toEqual([]);
  });

  it('still calls pages that carry an image and no text a scan', async () => {
    expect(await pdf('scanned.pdf')).toMatchObject({ textlessPages: [1, 2, 3], imagePages: [1, 2, 3], unreadTextPages: [] });
  });
});

describe('hostile structure trees', () => {
  it('ends the walk of a tree that loops back on itself, and says the PDF was not fully checked', async () => {
    const cyclic = await pdf('pdfua-structure-cycle.pdf');
    expect(cyclic.shortfalls).toEqual(['structure-cycle']);
    const found = checkDocument(cyclic, place, urlOf('cycle.pdf'), ORG_UNIT).findings;
    expect(ids(found)).toEqual(['doc.not-fully-checked']);
    expect(found[0]!.severity).toBe('info');
    expect(text(found, 'doc.not-fully-checked')).toMatch(/its tags loop back on themselves/);
  });

  it('stops at the depth limit, and judges no content outside tags it did not reach', async () => {
    const deep = await pdf('pdfua-structure-deep.pdf');
    expect(deep).toMatchObject({ tagged: true, shortfalls: ['structure-depth'], textLanguages: false });
    expect(deep.pageText.every((page) => page.untaggedChars === 0)).toBe(true);
    expect(ids(checkDocument(deep, place, urlOf('deep.pdf'), ORG_UNIT).findings)).toEqual(['doc.not-fully-checked']);
  });

  it('stops at the count limit, and reads a tree within it whole', async () => {
    const small = new DocumentRunner({ limits: { maxStructureNodes: 1_000 } });
    try {
      expect((await pdf('pdfua-structure-wide.pdf', small)).shortfalls).toEqual(['structure-size']);
    } finally {
      await small.close();
    }
    expect((await pdf('pdfua-structure-wide.pdf')).shortfalls).toEqual([]);
  });
});

describe('Word and PowerPoint depth', () => {
  it('flags Word tables without a header row, not one that has it nor a one-row layout table', async () => {
    expect(ids(await findings('tables-no-header-row.docx'))).toEqual(['doc.table-no-header-row']);
    const passing = await facts('tables-header-row.docx');
    expect(passing.type === 'docx' && passing.tables).toEqual([{ rows: 3, columns: 2, headerRow: true }, { rows: 1, columns: 2, headerRow: false }]);
    expect(checkDocument(passing, place, urlOf('tables.docx'), ORG_UNIT).findings).toEqual([]);
  });

  it('flags Word headings that skip a level, not ones in order', async () => {
    const skip = await findings('headings-skip.docx');
    expect(ids(skip)).toEqual(['doc.heading-skip']);
    expect(text(skip, 'doc.heading-skip')).toMatch(/^In this Word file, the headings skip from level 1 to level 3, /);
    const ordered = await facts('headings-ordered.docx');
    expect(ordered.type === 'docx' && ordered.headingLevels.map((heading) => heading.level)).toEqual([1, 2, 3, 2, 1]);
    expect(checkDocument(ordered, place, urlOf('ordered.docx'), ORG_UNIT).findings).toEqual([]);
  });

  it('flags a slide where a text box comes before the title, not one where only a decorative picture does', async () => {
    const slides = await facts('reading-order.pptx');
    expect(slides).toMatchObject({ type: 'pptx', untitledSlides: [], titleNotFirstSlides: [2] });
    const found = checkDocument(slides, place, urlOf('slides.pptx'), ORG_UNIT).findings;
    expect(ids(found)).toEqual(['doc.slide-reading-order@2']);
    expect(text(found, 'doc.slide-reading-order')).toMatch(/^On slide 2, screen readers meet other content before the slide's title/);
  });

  it('flags charts and SmartArt without alternative text apart from pictures, on their slide', async () => {
    const found = await findings('charts-no-alt.pptx');
    expect(ids(found)).toEqual(['doc.chart-no-alt@2']);
    expect(found[0]).toMatchObject({ count: 2, severity: 'error' });
    expect(text(found, 'doc.chart-no-alt')).toContain('("Chart 3", "Diagram 4")');
  });
});

describe('the rules behind the checks', () => {
  it('takes a language tag as valid only when it is well-formed BCP 47 with a real primary language', () => {
    for (const tag of ['en', 'en-CA', 'fr-CA', 'zh-Hant-TW', 'haw', 'mi-NZ', 'es-419', 'x-none', 'ja-JP']) expect(isValidLanguageTag(tag), tag).toBe(true);
    for (const tag of ['english', 'en_US', 'fr_CA', 'e', 'xx', '', 'en--US', '12']) expect(isValidLanguageTag(tag), tag).toBe(false);
  });

  it('finds where heading levels go wrong', () => {
    const levels = (...list: number[]) => list.map((level) => ({ level }));
    expect(headingProblems(levels(1, 2, 3, 2, 1, 2), true)).toEqual([]);
    expect(headingProblems(levels(2, 3), true)).toEqual([{ from: 0, to: 2 }]);
    expect(headingProblems(levels(2, 3), false)).toEqual([]);
    expect(headingProblems(levels(1, 3, 4, 6), false)).toEqual([{ from: 1, to: 3 }, { from: 4, to: 6 }]);
  });

  it('lists a few pages, in order, each once', () => {
    expect(formatMessage(pageList([5, 2, 2]))).toBe('pages 2, 5');
    expect(formatMessage(pageList([3]))).toBe('page 3');
    expect(formatMessage(pageList([9, 8, 7, 6, 5, 4, 3]))).toBe('pages 3, 4, 5, 6, 7 and 2 more');
  });

  it('gives every new check a severity: errors for what a screen reader user cannot get past', () => {
    expect(CHECKS).toMatchObject({
      'doc.pdf-figure-no-alt': 'error',
      'doc.pdf-table-no-headers': 'error',
      'doc.pdf-untagged-content': 'error',
      'doc.pdf-field-no-name': 'error',
      'doc.pdf-encryption-blocks-at': 'error',
      'doc.pdf-xfa': 'error',
      'doc.pdf-text-unmapped': 'error',
      'doc.table-no-header-row': 'error',
      'doc.chart-no-alt': 'error',
      'doc.heading-skip': 'warning',
      'doc.pdf-link-no-description': 'warning',
      'doc.pdf-title-not-shown': 'warning',
      'doc.pdf-font-not-embedded': 'warning',
      'doc.invalid-language': 'warning',
      'doc.slide-reading-order': 'warning',
      'doc.not-fully-checked': 'info',
    });
  });
});
