// Reads what the document checks need from a PDF with pdf.js (pdfjs-dist, its legacy build for
// Node): the title and language, whether it is tagged, the text of each page and its links. Runs in
// the document worker (document-worker.ts), never on the thread that checks links.
import { createRequire, enableCompileCache } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DocumentReadError, type DocumentLimits, type DocumentLink, type DocumentText, type PdfFacts } from './document-facts.ts';

import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

type PdfJs = typeof PdfJsModule;
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;
type TextItem = Extract<Awaited<ReturnType<PdfPage['getTextContent']>>['items'][number], { str: string }>;
// pdf.js's worker code has no type declarations; it is only handed to pdf.js.
const PDF_WORKER_MODULE: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

let pdfjs: Promise<PdfJs> | undefined;

/** pdf.js, loaded on the first PDF; its worker code runs in this thread (no nested worker). */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= (async () => {
    // pdf.js is 3 MB of JavaScript compiled again by every run's reader; Node's compile cache (in the
    // system's temporary folder) keeps the compiled code between runs and processes.
    enableCompileCache();
    const worker: unknown = await import(PDF_WORKER_MODULE);
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return pdfjs;
}

// Character maps and the standard fonts' metrics let pdf.js turn glyphs into text (CJK fonts among
// them); pdf.js reads them from these folders itself.
const packageRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const CMAP_URL = `${pathToFileURL(join(packageRoot, 'cmaps')).href}/`;
const STANDARD_FONTS_URL = `${pathToFileURL(join(packageRoot, 'standard_fonts')).href}/`;

/** A page with fewer visible characters than this carries no real text (a stray page number). */
const MIN_PAGE_CHARACTERS = 10;

function cleanString(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replaceAll('\u0000', '').trim();
  return trimmed === '' ? null : trimmed;
}

export async function readPdf(bytes: Uint8Array, limits: DocumentLimits): Promise<PdfFacts> {
  const { getDocument } = await loadPdfJs();
  const task = getDocument({
    data: bytes,
    disableFontFace: true,
    useSystemFonts: false,
    cMapUrl: CMAP_URL,
    cMapPacked: true,
    standardFontDataUrl: STANDARD_FONTS_URL,
    stopAtErrors: false,
    verbosity: 0,
  });
  let document;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy();
    const name = (error as { name?: string } | null)?.name;
    if (name === 'PasswordException') throw new DocumentReadError('password', 'The PDF needs a password to open.');
    throw new DocumentReadError('malformed', error instanceof Error ? error.message : String(error));
  }

  try {
    const [metadata, markInfo] = await Promise.all([document.getMetadata().catch(() => null), document.getMarkInfo().catch(() => null)]);
    const info = (metadata?.info ?? {}) as Record<string, unknown>;
    const xmp = metadata?.metadata;
    const title = cleanString(info.Title) ?? cleanString(xmp?.get('dc:title'));
    const language = cleanString(info.Language) ?? cleanString(xmp?.get('dc:language'));

    const pages = document.numPages;
    const pagesRead = Math.min(pages, limits.maxPages);
    const links: DocumentLink[] = [];
    const text: DocumentText[] = [];
    const textlessPages: number[] = [];
    let textChars = 0;
    let tagged = false;

    for (let number = 1; number <= pagesRead; number++) {
      const page = await document.getPage(number);
      try {
        if (!tagged) {
          const tree = await page.getStructTree().catch(() => null);
          tagged = tree !== null && Array.isArray(tree.children) && tree.children.length > 0;
        }
        const content = await page.getTextContent();
        const items = content.items.filter((item): item is TextItem => 'str' in item);
        const pageText = items.map((item) => item.str + (item.hasEOL ? ' ' : '')).join('').replace(/\s+/g, ' ').trim();
        if (pageText.replace(/\s/g, '').length < MIN_PAGE_CHARACTERS) textlessPages.push(number);
        if (pageText !== '' && textChars < limits.maxTextChars) {
          const kept = pageText.slice(0, limits.maxTextChars - textChars);
          textChars += kept.length;
          text.push({ text: kept, page: number });
        }
        // pdf.js gives each link the text it lies over (`overlaidText`), read from the page's content.
        const annotations = (await page.getAnnotations({ intent: 'display' })) as { subtype?: string; unsafeUrl?: string; url?: string; overlaidText?: string }[];
        for (const annotation of annotations) {
          if (annotation.subtype !== 'Link' || links.length >= limits.maxLinks) continue;
          const raw = cleanString(annotation.unsafeUrl) ?? cleanString(annotation.url);
          if (raw === null) continue; // a jump within the document
          const linkText = cleanString(annotation.overlaidText)?.replace(/\s+/g, ' ').slice(0, 200);
          links.push({ raw, page: number, ...(linkText === undefined ? {} : { text: linkText }) });
        }
      } finally {
        page.cleanup();
      }
    }
    // A tagged PDF whose first pages carry no marked content still says so in its catalogue.
    if (!tagged && markInfo?.Marked === true && pagesRead < pages) tagged = true;

    return { type: 'pdf', title, language, pages, pagesRead, tagged, textlessPages, links, text };
  } finally {
    await task.destroy();
  }
}
