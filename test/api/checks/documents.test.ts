// The document checks on real files (test/fixtures/documents, made by
// scripts/make-document-fixtures.ts with LibreOffice and pdf-lib), read by the real document worker:
// each check flags the file made to fail it and leaves its look-alike alone, the links inside each
// format come out as link occurrences, and hostile files fail alone, with a reason.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { documentTypeOf, type DocumentFacts, DEFAULT_DOCUMENT_LIMITS } from '../../../api/extract/document-facts.ts';
import { DocumentRunner, type DocumentResult } from '../../../api/extract/document-runner.ts';
import { checkDocument, needsAltText } from '../../../api/checks/documents.ts';
import type { Finding } from '../../../api/checks/finding.ts';
import type { ItemPlace } from '../../../api/brightspace/places.ts';
import { readDocx } from '../../../api/extract/office-reader.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';

const FIXTURES = new URL('../../fixtures/documents/', import.meta.url);
const ORG_UNIT = 7300;
const place: ItemPlace = { moduleId: 1, moduleTitle: 'Week 1', topicId: 11, topicTitle: 'Readings', itemType: 'topic', itemId: 11, itemTitle: 'Readings' };
const runner = new DocumentRunner();

afterAll(() => runner.close());

const urlOf = (name: string) => `https://school.example/content/enforced/${ORG_UNIT}-BIO/week1/${name}`;
const bytesOf = (name: string) => readFileSync(new URL(name, FIXTURES));

async function read(name: string, reader = runner): Promise<DocumentResult> {
  return reader.read(documentTypeOf(name)!, bytesOf(name));
}

async function facts(name: string): Promise<DocumentFacts> {
  const result = await read(name);
  if (!result.ok) throw new Error(`${name} could not be read: ${JSON.stringify(result.failure)}`);
  return result.facts;
}

async function check(name: string) {
  return checkDocument(await facts(name), place, urlOf(name), ORG_UNIT);
}

/** Findings as `check@page` (slide or page where the format tells it). */
const ids = (findings: Finding[]) => findings.map((found) => (found.page === undefined ? found.check : `${found.check}@${found.page}`)).sort();

describe('PDF', () => {
  it('leaves a tagged PDF with a title and a language alone', async () => {
    const tagged = await facts('tagged.pdf');
    expect(tagged).toMatchObject({ type: 'pdf', tagged: true, title: 'Environmental Science 101: syllabus', language: 'en-CA', pages: 2, pagesRead: 2 });
    expect((await check('tagged.pdf')).findings).toEqual([]);
  });

  it('flags an untagged PDF (doc.pdf-untagged) as an error about the document, at its address', async () => {
    const { findings } = await check('untagged.pdf');
    expect(ids(findings)).toEqual(['doc.pdf-untagged']);
    expect(findings[0]).toMatchObject({ severity: 'error', url: urlOf('untagged.pdf'), topicId: 11 });
    expect(formatMessage(findings[0]!.message)).toMatch(/no tags.*Export it again/);
  });

  it('flags a PDF with no title and no language, and the placeholder on its second page', async () => {
    const { findings } = await check('bare.pdf');
    expect(ids(findings)).toEqual(['content.placeholder@2', 'doc.no-language', 'doc.no-title', 'doc.pdf-untagged']);
    expect(formatMessage(findings.find((found) => found.check === 'doc.no-title')!.message)).toMatch(/^This PDF has no title/);
    expect(formatMessage(findings.find((found) => found.check === 'content.placeholder')!.message)).toContain('"TBD"');
  });

  it('flags an image-only scan (doc.pdf-scanned) from its first page, but not the same scan with an OCR text layer', async () => {
    const scanned = await check('scanned.pdf');
    // A scanner sets a title but leaves the title bar showing the file name.
    expect(ids(scanned.findings)).toEqual(['doc.pdf-scanned@1', 'doc.pdf-title-not-shown', 'doc.pdf-untagged']);
    const finding = scanned.findings.find((found) => found.check === 'doc.pdf-scanned')!;
    expect(finding).toMatchObject({ severity: 'error', count: 3 });
    expect(formatMessage(finding.message)).toMatch(/^3 pages of 3 carry no text/);

    const ocr = await facts('ocr.pdf');
    expect(ocr).toMatchObject({ type: 'pdf', textlessPages: [] });
    expect(ids(checkDocument(ocr, place, urlOf('ocr.pdf'), ORG_UNIT).findings)).toEqual(['doc.pdf-title-not-shown', 'doc.pdf-untagged']);
  });

  it('hands its links to the link checks with the page and the words they are on', async () => {
    const { links } = await check('tagged.pdf');
    expect(links).toEqual([
      { raw: '/library/reading.html', url: 'https://school.example/library/reading.html', element: 'pdf link', embedded: false, text: 'weekly reading', page: 2 },
      { raw: '/d2l/le/content/9999/viewContent/1/View', url: 'https://school.example/d2l/le/content/9999/viewContent/1/View', element: 'pdf link', embedded: false, text: 'gradebook of last term', page: 2 },
      { raw: '/library/missing.html', url: 'https://school.example/library/missing.html', element: 'pdf link', embedded: false, text: 'field notebook guide', page: 2 },
    ]);
  });

  it('opens a PDF that only restricts editing, and checks it', async () => {
    const restricted = await facts('restricted.pdf');
    expect(restricted).toMatchObject({ tagged: true, title: 'Environmental Science 101: syllabus' });
    expect(checkDocument(restricted, place, urlOf('restricted.pdf'), ORG_UNIT).findings).toEqual([]);
  });

  it('does not open a PDF that needs a password, nor a malformed one', async () => {
    expect(await read('encrypted.pdf')).toMatchObject({ ok: false, failure: { kind: 'password' } });
    expect(await read('malformed.pdf')).toMatchObject({ ok: false, failure: { kind: 'malformed' } });
  });
});

describe('Word', () => {
  it('leaves a titled Word file with headings, described and decorative images alone', async () => {
    const clean = await facts('clean.docx');
    expect(clean).toMatchObject({ type: 'docx', title: 'Lab safety', language: expect.stringMatching(/^en/) });
    expect(clean.type === 'docx' && clean.images).toEqual([
      { name: 'Heron', alt: 'A grey heron standing in reeds at the edge of a pond', decorative: false },
      { name: 'Divider', alt: null, decorative: true },
    ]);
    expect((await check('clean.docx')).findings).toEqual([]);
  });

  it('leaves a short Word file without headings alone', async () => {
    const short = await facts('short.docx');
    expect(short).toMatchObject({ type: 'docx', headings: 0 });
    expect(short.type === 'docx' && short.words).toBeLessThan(1500);
    expect((await check('short.docx')).findings).toEqual([]);
  });

  it('flags a long Word file with no headings, no title, images without alt text (a file name is none) and a placeholder', async () => {
    const { findings } = await check('long.docx');
    expect(ids(findings)).toEqual(['content.placeholder', 'doc.image-no-alt', 'doc.no-headings', 'doc.no-title']);
    const images = findings.find((found) => found.check === 'doc.image-no-alt')!;
    expect(images).toMatchObject({ severity: 'error', count: 2 });
    expect(formatMessage(images.message)).toBe('2 images have no alternative text ("Picture 1", "Picture 2"). Add a description in Alt Text, or mark the image as decorative if it adds nothing to the content.');
    expect(formatMessage(findings.find((found) => found.check === 'doc.no-headings')!.message)).toMatch(/^This Word file has 1,\d{3} words but no headings/);
    expect(formatMessage(findings.find((found) => found.check === 'content.placeholder')!.message)).toContain('"[insert due date]"');
  });

  it('flags a Word file with no language anywhere (doc.no-language), and only that', async () => {
    expect(ids((await check('no-language.docx')).findings)).toEqual(['doc.no-language']);
  });

  it('hands its hyperlinks to the link checks', async () => {
    expect((await check('clean.docx')).links).toEqual([
      { raw: '/library/reading.html', url: 'https://school.example/library/reading.html', element: 'docx hyperlink', embedded: false, text: 'safety reading' },
    ]);
  });

  it('stops a zip bomb by its size, and one that lies about its size once it unpacks past its claim', async () => {
    expect(await read('zip-bomb.docx')).toMatchObject({ ok: false, failure: { kind: 'too-large' } });
    expect(await read('lying-zip-bomb.pptx')).toMatchObject({ ok: false, failure: { kind: 'too-large' } });
  });

  it('says a file that is not a zip, or an encrypted Office file, cannot be read, and why', async () => {
    expect(await read('not-a-zip.docx')).toMatchObject({ ok: false, failure: { kind: 'malformed' } });
    // An encrypted Office file is an OLE compound file holding an EncryptionInfo stream.
    const compound = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504), Buffer.from('EncryptionInfo', 'utf16le'), Buffer.alloc(512)]);
    await expect(readDocx(compound, DEFAULT_DOCUMENT_LIMITS)).rejects.toMatchObject({ kind: 'password' });
    await expect(readDocx(compound.subarray(0, 512), DEFAULT_DOCUMENT_LIMITS)).rejects.toMatchObject({ kind: 'malformed' });
  });
});

describe('PowerPoint', () => {
  it('leaves slides that all have titles, with described and decorative pictures, alone', async () => {
    const clean = await facts('clean.pptx');
    expect(clean).toMatchObject({ type: 'pptx', slides: 3, untitledSlides: [], title: 'Week 1: ecosystems', language: expect.stringMatching(/^en/) });
    expect((await check('clean.pptx')).findings).toEqual([]);
  });

  it('flags slides without a title (a big text box is not one) and a picture without alt text, on their slides', async () => {
    const { findings } = await check('untitled.pptx');
    expect(ids(findings)).toEqual(['doc.image-no-alt@3', 'doc.no-title', 'doc.slide-no-title@2', 'doc.slide-no-title@3']);
    expect(formatMessage(findings.find((found) => found.check === 'doc.slide-no-title' && found.page === 3)!.message)).toMatch(/^Slide 3 has no title/);
    // Each slide's finding is its own across runs.
    const subjects = findings.filter((found) => found.check === 'doc.slide-no-title').map((found) => found.subject);
    expect(new Set(subjects).size).toBe(2);
  });

  it('hands its hyperlinks to the link checks with their slide', async () => {
    expect((await check('untitled.pptx')).links).toEqual([
      { raw: '/library/missing.html', url: 'https://school.example/library/missing.html', element: 'pptx hyperlink', embedded: false, text: 'the sampling sheet', page: 2 },
    ]);
  });
});

describe('alternative text', () => {
  const image = (alt: string | null, name = 'Picture 1') => ({ name, alt, decorative: false });

  it('counts a description, not a file name, a path, the shape name or nothing', () => {
    expect(needsAltText(image('A heron in reeds'))).toBe(false);
    expect(needsAltText({ ...image(null), decorative: true })).toBe(false);
    for (const alt of [null, 'IMG_2041.JPG', 'heron.png', 'C:\\Users\\Jane Doe\\Pictures\\heron.jpg', 'Picture 1', 'Image3']) {
      expect(needsAltText(image(alt)), String(alt)).toBe(true);
    }
  });
});

describe('the document runner', () => {
  it('gives up on a document that takes too long, and reads the next one with a fresh reader', async () => {
    const slow = new DocumentRunner({ limits: { timeoutMs: 1 } });
    try {
      expect(await read('tagged.pdf', slow)).toEqual({ ok: false, failure: { kind: 'timeout' } });
    } finally {
      await slow.close();
    }
    expect(await read('short.docx')).toMatchObject({ ok: true });
  });

  it('gives up on a document when the process grows past its memory limit', async () => {
    const tight = new DocumentRunner({ rssLimitBytes: 1 });
    try {
      // Loading pdf.js alone takes longer than one look at the process's memory.
      expect(await read('tagged.pdf', tight)).toMatchObject({ ok: false, failure: { kind: 'too-large' } });
    } finally {
      await tight.close();
    }
  });

  it('refuses work once closed', async () => {
    const closed = new DocumentRunner();
    await closed.close();
    expect(await read('short.docx', closed)).toMatchObject({ ok: false, failure: { kind: 'crashed' } });
  });
});
