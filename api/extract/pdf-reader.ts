// Reads what the document checks need from a PDF: pdf.js (pdfjs-dist, its legacy build for Node)
// gives the title and language, the text of each page with the marked content it sits in, and the
// annotations (links, form fields); pdf-objects.ts (pdf-lib) gives what pdf.js does not expose: the
// catalog, the tag structure and the pages' fonts. Runs in the document worker (document-worker.ts),
// never on the thread that checks links.
import { createRequire, enableCompileCache } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DocumentReadError,
  type DocumentLimits,
  type DocumentLink,
  type DocumentText,
  type PdfFacts,
  type PdfFont,
  type PdfFormField,
  type PdfLinkAnnotation,
  type PdfPageText,
  type PdfShortfall,
} from './document-facts.ts';
import { readPdfObjects, STANDARD_ROLES, type ContentOwner, type PdfObjectFacts } from './pdf-objects.ts';

import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

type PdfJs = typeof PdfJsModule;
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;
type ContentItem = Awaited<ReturnType<PdfPage['getTextContent']>>['items'][number];
type TextItem = Extract<ContentItem, { str: string }>;
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

/**
 * Pages of one document whose drawing operators pdf.js lists (to see whether a page really draws an
 * image, or draws visible text in a font that is not embedded). Listing decodes the page's images,
 * so it is kept for the few pages the resources leave in doubt; past this many, the resources decide
 * whether a page has an image, and a font not embedded is not judged.
 */
const MAX_OPERATOR_LISTS = 10;

/** Nesting of marked content followed in a page's text: real content nests a few levels. */
const MAX_MARKED_CONTENT_DEPTH = 256;

// Characters a screen reader cannot speak: the replacement character, controls, private use.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const UNMAPPED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd\ue000-\uf8ff]|[\udb80-\udbff][\udc00-\udfff]/g;

function cleanString(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replaceAll('\u0000', '').trim();
  return trimmed === '' ? null : trimmed;
}

const countChars = (text: string) => text.replace(/\s/g, '').length;

/** What one page's text content is made of, read through the marked content that holds each piece. */
function measureText(items: ContentItem[], owners: (id: string) => ContentOwner | undefined, tagged: boolean): Omit<PdfPageText, 'page'> {
  const measure = { chars: 0, unmappedChars: 0, untaggedChars: 0, charsWithoutLanguage: 0 };
  // The open marked content: each entry is `artifact`, an MCID's id, `unknown` (a structure type
  // whose properties pdf.js did not read: a named property list can hold an MCID too), or null.
  const open: (string | null)[] = [];
  let artifacts = 0;
  // Marked content opened past the depth followed: closed again without being looked at.
  let overflow = 0;
  for (const item of items) {
    if ('type' in item) {
      if (item.type === 'endMarkedContent') {
        if (overflow > 0) overflow--;
        else if (open.pop() === 'artifact') artifacts--;
      } else if (open.length >= MAX_MARKED_CONTENT_DEPTH) {
        overflow++;
      } else {
        // pdf.js gives the tag too, though its declarations leave it out.
        const tag = (item as { tag?: string | null }).tag ?? '';
        const artifact = tag === 'Artifact';
        if (artifact) artifacts++;
        const id = item.type === 'beginMarkedContentProps' ? (item.id ?? null) : null;
        open.push(artifact ? 'artifact' : id ?? (item.type === 'beginMarkedContentProps' && STANDARD_ROLES.has(tag) ? 'unknown' : null));
      }
      continue;
    }
    if (!('str' in item) || artifacts > 0) continue;
    const chars = countChars(item.str);
    if (chars === 0) continue;
    measure.chars += chars;
    measure.unmappedChars += item.str.match(UNMAPPED)?.length ?? 0;
    if (!tagged) continue;
    const id = open.findLast((entry) => entry !== null && entry !== 'unknown');
    // Outside any MCID, marked content whose ownership cannot be told counts neither way.
    if (id === undefined && open.includes('unknown')) continue;
    const owner = id === undefined || id === null ? undefined : owners(id);
    if (owner === undefined) measure.untaggedChars += chars;
    else if (!owner.language) measure.charsWithoutLanguage += chars;
  }
  return measure;
}

/** The owner of a pdf.js marked content id (`p12R_mc3`: page object 12, MCID 3) in the tag structure. */
function ownerLookup(objects: PdfObjectFacts | null): (id: string) => ContentOwner | undefined {
  return (id) => {
    const match = /^p(.+)_mc(\d+)$/.exec(id);
    if (match === null || objects === null) return undefined;
    return objects.markedContent.get(match[1]!)?.get(Number(match[2]));
  };
}

/** A font's bounding box as a key: how a font pdf.js loaded is matched to the font dictionary pdf-lib read. */
const boxKey = (box: readonly number[]) => box.map((value) => Math.round(value)).join(',');

/**
 * Whether a page draws an image, and the fonts (by bounding box) it draws visible text with, from
 * pdf.js's operator list.
 */
async function drawing(page: PdfPage, OPS: PdfJs['OPS']): Promise<{ image: boolean; visibleFonts: Set<string> }> {
  const list = await page.getOperatorList();
  const imageOps = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat, OPS.paintInlineImageXObjectGroup, OPS.paintImageMaskXObjectGroup, OPS.paintImageMaskXObjectRepeat, OPS.paintSolidColorImageMask]);
  const textOps = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);
  // pdf.js names each font it loads by an id of its own; the font's data keeps the bounding box of
  // its font descriptor, which is what ties it to the font dictionary.
  const boxOf = (font: string | null) => {
    if (font === null || !page.commonObjs.has(font)) return undefined;
    const box = (page.commonObjs.get(font) as { bbox?: number[] } | null)?.bbox;
    return Array.isArray(box) && box.length === 4 ? boxKey(box) : undefined;
  };
  let image = false;
  const visibleFonts = new Set<string>();
  // Render modes 3 and 7 draw nothing (OCR text over a scan); the mode and the font are saved and
  // restored with the graphics state.
  let mode = 0;
  let font: string | null = null;
  const saved: { mode: number; font: string | null }[] = [];
  for (let index = 0; index < list.fnArray.length; index++) {
    const op = list.fnArray[index]!;
    const args = list.argsArray[index] as unknown[] | null;
    if (imageOps.has(op)) image = true;
    else if (op === OPS.save) saved.push({ mode, font });
    else if (op === OPS.restore) ({ mode, font } = saved.pop() ?? { mode, font });
    else if (op === OPS.setTextRenderingMode) mode = Number(args?.[0] ?? 0);
    else if (op === OPS.setFont) font = typeof args?.[0] === 'string' ? args[0] : null;
    else if (textOps.has(op) && mode !== 3 && mode !== 7) {
      const box = boxOf(font);
      if (box !== undefined) visibleFonts.add(box);
    }
  }
  return { image, visibleFonts };
}

export async function readPdf(bytes: Uint8Array, limits: DocumentLimits): Promise<PdfFacts> {
  // pdf-lib first: pdf.js takes the bytes over (it moves them to its worker side).
  const objects = await readPdfObjects(bytes, limits.maxPages, limits.maxStructureNodes).catch(() => null);
  const pdf = await loadPdfJs();
  const task = pdf.getDocument({
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
    const imagePages: number[] = [];
    const unreadTextPages: number[] = [];
    const pageText: PdfPageText[] = [];
    const linkAnnotations: PdfLinkAnnotation[] = [];
    const formFields: PdfFormField[] = [];
    const shortfalls = new Set<PdfShortfall>(objects?.shortfalls ?? ['objects-unreadable']);
    const structured = objects?.structureTree === true;
    // When a limit stopped the walk of the tags, content may belong to elements past it: what is
    // outside the tags, or without a language, cannot be told.
    const walkedWhole = !['structure-depth', 'structure-size', 'structure-cycle'].some((shortfall) => objects?.shortfalls.has(shortfall as PdfShortfall));
    const owners = ownerLookup(objects);
    const fontsOf = (number: number): PdfFont[] => (objects?.pageResources[number - 1]?.fontKeys ?? []).map((key) => objects!.fonts.get(key)!).filter(Boolean);
    // Fonts neither embedded nor standard that a page naming them shows visible text with.
    const unembeddedVisible = new Set<PdfFont>();
    let operatorLists = 0;
    let textChars = 0;
    let tagged = false;

    for (let number = 1; number <= pagesRead; number++) {
      const page = await document.getPage(number);
      try {
        // pdf-lib's view of the catalog says whether there are tags; without it, pdf.js's page trees do.
        if (!tagged && objects === null) {
          const tree = await page.getStructTree().catch(() => null);
          tagged = tree !== null && Array.isArray(tree.children) && tree.children.length > 0;
        }
        const content = await page.getTextContent({ includeMarkedContent: structured });
        const items = content.items.filter((item): item is TextItem => 'str' in item);
        const measured = measureText(content.items, owners, structured && walkedWhole);
        // Marked content that declares its own language: pdf.js does not say which text it covers.
        const pageKey = objects?.pageKeys[number - 1];
        if (pageKey !== undefined && objects?.languageInContent.has(pageKey) === true) measured.charsWithoutLanguage = 0;
        pageText.push({ page: number, ...measured });
        const pageString = items.map((item) => item.str + (item.hasEOL ? ' ' : '')).join('').replace(/\s+/g, ' ').trim();
        const resources = objects?.pageResources[number - 1];
        const fonts = fontsOf(number);
        // A font that is neither embedded nor one every reader has: whether the page shows text with it
        // (rather than only invisible text over a scan, which needs no font) takes the operator list.
        const unembedded = fonts.filter((font) => !font.embedded && !font.standard);
        const textless = countChars(pageString) < MIN_PAGE_CHARACTERS;
        if (textless) {
          textlessPages.push(number);
          // pdf.js reads no text with some CID-keyed fonts that other readers read: the font's own
          // mapping to Unicode says there is text on the page.
          if (fonts.some((font) => font.composite && font.unicode === true) && countChars(pageString) === 0) unreadTextPages.push(number);
        }
        const needImage = textless && resources?.images === true && !resources.imagesCertain;
        if ((needImage || unembedded.length > 0) && operatorLists < MAX_OPERATOR_LISTS) {
          operatorLists++;
          const drawn = await drawing(page, pdf.OPS).catch(() => ({ image: true, visibleFonts: new Set<string>() }));
          if (textless && drawn.image) imagePages.push(number);
          for (const font of unembedded) {
            const box = objects?.fontBoxes.get(font);
            if (box !== undefined && drawn.visibleFonts.has(boxKey(box))) unembeddedVisible.add(font);
          }
        } else if (textless && (resources === undefined ? objects === null : resources.images)) {
          // Without pdf-lib's view of the page, a textless page counts as an image, as it always did.
          imagePages.push(number);
        }
        if (pageString !== '' && textChars < limits.maxTextChars) {
          const kept = pageString.slice(0, limits.maxTextChars - textChars);
          textChars += kept.length;
          text.push({ text: kept, page: number });
        }
        // pdf.js gives each link the text it lies over (`overlaidText`), read from the page's content.
        const annotations = (await page.getAnnotations({ intent: 'display' })) as PdfJsAnnotation[];
        for (const annotation of annotations) {
          const hidden = annotation.hidden === true || ((annotation.annotationFlags ?? 0) & 0x22) !== 0;
          const owner = annotation.id === undefined || annotation.id === null ? undefined : objects?.annotations.get(annotation.id);
          if (annotation.subtype === 'Widget') {
            // pdf.js reads TU from the widget alone; a field's TU often sits on its parent field.
            const tooltip = cleanString(annotation.alternativeText) !== null || (annotation.id != null && objects?.fieldTooltips.has(annotation.id) === true);
            if (!hidden) formFields.push({ page: number, described: tooltip || owner?.described === true });
            continue;
          }
          if (annotation.subtype !== 'Link') continue;
          const linkText = cleanString(annotation.overlaidText)?.replace(/\s+/g, ' ').slice(0, 200);
          if (!hidden && linkAnnotations.length < limits.maxLinks) {
            linkAnnotations.push({
              page: number,
              contents: cleanString(annotation.contentsObj?.str) !== null,
              // Past a limit of the walk, an annotation's owner may be an element not reached.
              tagged: structured && walkedWhole ? owner?.role === 'Link' : null,
              elementDescribed: owner?.described === true,
              ...(linkText === undefined ? {} : { text: linkText }),
            });
          }
          if (links.length >= limits.maxLinks) continue;
          const raw = cleanString(annotation.unsafeUrl) ?? cleanString(annotation.url);
          if (raw === null) continue; // a jump within the document
          links.push({ raw, page: number, ...(linkText === undefined ? {} : { text: linkText }) });
        }
      } finally {
        page.cleanup();
      }
    }
    // A tagged PDF whose first pages carry no marked content still says so in its catalogue, and one
    // whose tags pdf.js gives up on (deeper than it follows) still has them.
    if (!tagged && ((markInfo?.Marked === true && pagesRead < pages) || structured)) tagged = true;
    const fonts = [...(objects?.fonts.values() ?? [])].map((font) => (!font.embedded && !font.standard ? { ...font, visible: unembeddedVisible.has(font) } : font));

    return {
      type: 'pdf',
      title,
      language,
      pages,
      pagesRead,
      tagged,
      textlessPages,
      imagePages,
      unreadTextPages,
      displayDocTitle: objects?.displayDocTitle ?? null,
      accessibilityBlocked: objects?.accessibilityBlocked ?? null,
      dynamicXfa: objects?.dynamicXfa ?? false,
      languageTags: objects?.languageTags ?? (language === null ? [] : [{ tag: language }]),
      figures: objects?.figures ?? [],
      tables: objects?.tables ?? [],
      headings: objects?.headings ?? [],
      linkAnnotations,
      formFields,
      fonts,
      pageText,
      textLanguages: structured && walkedWhole && pageText.some((page) => page.chars > 0) && pageText.every((page) => page.untaggedChars === 0 && page.charsWithoutLanguage === 0),
      shortfalls: [...shortfalls],
      links,
      text,
    };
  } finally {
    await task.destroy();
  }
}

/** The parts of pdf.js's annotation data read here. */
interface PdfJsAnnotation {
  id?: string | null;
  subtype?: string;
  annotationFlags?: number;
  hidden?: boolean;
  unsafeUrl?: string;
  url?: string;
  overlaidText?: string;
  contentsObj?: { str?: string };
  alternativeText?: string;
}
