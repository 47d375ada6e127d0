// Reads what pdf.js does not tell about a PDF from its objects, with pdf-lib's low-level objects: the
// catalog (DisplayDocTitle, the XFA form, encryption's permissions), the tag structure (figures,
// tables, headings, languages, which marked content and annotations each element owns) and each
// page's resources (fonts, images). Every walk of the object graph is bounded in depth and in count
// and keeps a set of the objects it has been through, so a hostile file ends the walk, not the run.
import { enableCompileCache } from 'node:module';
import { Parser } from 'htmlparser2';
import type { PdfCatalogFacts, PdfFigure, PdfShortfall, PdfTable, DocumentHeading, PdfFont } from './document-facts.ts';

import type * as PdfLibModule from 'pdf-lib';

type PdfLib = typeof PdfLibModule;
type PDFObject = PdfLibModule.PDFObject;
type PDFDict = PdfLibModule.PDFDict;
type PDFContext = PdfLibModule.PDFContext;

let pdfLib: Promise<PdfLib> | undefined;

/** pdf-lib, loaded on the first PDF (the reading thread of a run without PDFs never needs it). */
function loadPdfLib(): Promise<PdfLib> {
  // Its compiled code is kept between runs like pdf.js's (see pdf-reader.ts), and it loads first.
  enableCompileCache();
  pdfLib ??= import('pdf-lib');
  return pdfLib;
}

/**
 * Levels of the tag structure walked. Authoring tools nest a dozen levels (Document > Sect > Table >
 * TBody > TR > TD > P > Span > Link); pdf.js itself stops at 40. Deeper is a generator's accident or
 * an attack, whose rest is not checked.
 */
export const MAX_STRUCTURE_DEPTH = 100;
/** Levels of a page tree (Pages inside Pages): real files have two or three. */
const MAX_PAGE_TREE_DEPTH = 32;
/** Links of a role map chain (a custom role mapped to another custom role...): real files have one. */
const MAX_ROLE_MAP_HOPS = 8;
/** Levels of form XObjects drawn inside form XObjects whose resources are read for fonts and images. */
const MAX_FORM_DEPTH = 4;
/** Fonts and XObjects read from one page's resources: a page of real text names a few dozen. */
const MAX_RESOURCES_PER_PAGE = 500;
/** Annotations read on one page: a dense form has a few hundred fields. */
const MAX_ANNOTATIONS_PER_PAGE = 2_000;
/** Levels of a form field's parents (a field inside a field group): real forms nest two or three. */
const MAX_FIELD_DEPTH = 16;
/** Bytes of page content decoded to look for languages in marked content: 500 dense pages of text. */
const MAX_CONTENT_BYTES_FOR_LANGUAGE = 64 * 1024 * 1024;

/** A page as pdf.js names it in its marked content ids (`p12R_mc3`): its object number and generation. */
export function pageKeyOf(ref: PdfLibModule.PDFRef): string {
  return `${ref.objectNumber}R${ref.generationNumber === 0 ? '' : ref.generationNumber}`;
}

/** A page of the page tree, with the resources it inherits. */
interface PdfPageObject {
  key: string;
  dict: PDFDict;
  resources: PDFDict | undefined;
}

/** What a structure element owning marked content or an annotation is, for the content's checks. */
export interface ContentOwner {
  role: string;
  /** It or an element around it has a language. */
  language: boolean;
  /** It or an element around it has Alt or ActualText. */
  described: boolean;
}

export interface PdfObjectFacts extends PdfCatalogFacts {
  /** The keys of the pages read, in order. */
  pageKeys: string[];
  /** The catalog has a structure tree root with elements. */
  structureTree: boolean;
  /** Page key -> MCID -> the element that owns it. */
  markedContent: Map<string, Map<number, ContentOwner>>;
  /** Annotation key (pdf.js's id, `17R`) -> the element that owns it. */
  annotations: Map<string, ContentOwner>;
  /** Per page read, in order. */
  pageResources: PdfPageResources[];
  /** Widget annotations (pdf.js's ids) whose field, or a parent field, has a tooltip (TU). */
  fieldTooltips: Set<string>;
  /** Without a document language: the pages (keys) whose marked content declares a language of its own. */
  languageInContent: Set<string>;
  /** Font key -> its facts. */
  fonts: Map<string, PdfFont>;
  /** A font's facts -> its descriptor's bounding box, to tie it to the font pdf.js loaded. */
  fontBoxes: Map<PdfFont, number[]>;
  shortfalls: Set<PdfShortfall>;
}

/** What one page's resources name. */
export interface PdfPageResources {
  fontKeys: string[];
  /** The resources name an image (directly or in a form XObject). */
  images: boolean;
  /** The resources are the page's own, so an image they name is drawn on this page. */
  imagesCertain: boolean;
}

/** The standard structure types of ISO 32000-1 (14.8.4); any other role goes through the role map. */
export const STANDARD_ROLES: ReadonlySet<string> = new Set([
  'Document', 'Part', 'Art', 'Sect', 'Div', 'BlockQuote', 'Caption', 'TOC', 'TOCI', 'Index', 'NonStruct', 'Private',
  'P', 'H', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'L', 'LI', 'Lbl', 'LBody', 'Table', 'TR', 'TH', 'TD', 'THead', 'TBody', 'TFoot',
  'Span', 'Quote', 'Note', 'Reference', 'BibEntry', 'Code', 'Link', 'Annot', 'Ruby', 'RB', 'RT', 'RP', 'Warichu', 'WT', 'WP',
  'Figure', 'Formula', 'Form',
]);

/** Reads the catalog, the page tree and the tag structure; null when pdf-lib cannot read the file at all. */
export async function readPdfObjects(bytes: Uint8Array, maxPages: number, maxStructureNodes: number): Promise<PdfObjectFacts | null> {
  const lib = await loadPdfLib();
  let document: PdfLibModule.PDFDocument;
  try {
    // Encrypted files are read too: their numbers, names and structure are in the clear; their strings
    // are not, so only whether a string is there counts for them.
    document = await lib.PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, parseSpeed: lib.ParseSpeeds.Fastest, throwOnInvalidObject: false });
  } catch {
    return null;
  }
  const reader = new ObjectReader(lib, document.context);
  const catalog = reader.dict(document.context.trailerInfo.Root);
  if (catalog === undefined) return null;
  return reader.read(catalog, maxPages, maxStructureNodes);
}

/** Whether a string of the file has any text in it (an encrypted one counts when it has bytes). */
function hasText(lib: PdfLib, value: PDFObject | undefined, encrypted: boolean): boolean {
  if (value instanceof lib.PDFString || value instanceof lib.PDFHexString) {
    if (encrypted) return value.asBytes().length > 0;
    return value.decodeText().replaceAll('\u0000', '').trim() !== '';
  }
  return false;
}

class ObjectReader {
  readonly #lib: PdfLib;
  readonly #context: PDFContext;
  #encrypted = false;

  constructor(lib: PdfLib, context: PDFContext) {
    this.#lib = lib;
    this.#context = context;
  }

  /** Resolves a reference (one hop; a reference to a reference is a broken file). */
  resolve(value: PDFObject | undefined): PDFObject | undefined {
    if (value instanceof this.#lib.PDFRef) return this.#context.lookup(value);
    return value;
  }

  dict(value: PDFObject | undefined): PDFDict | undefined {
    const resolved = this.resolve(value);
    return resolved instanceof this.#lib.PDFDict ? resolved : resolved instanceof this.#lib.PDFStream ? resolved.dict : undefined;
  }

  get(dict: PDFDict | undefined, key: string): PDFObject | undefined {
    return dict === undefined ? undefined : this.resolve(dict.get(this.#lib.PDFName.of(key)));
  }

  name(dict: PDFDict | undefined, key: string): string | undefined {
    const value = this.get(dict, key);
    return value instanceof this.#lib.PDFName ? value.decodeText() : undefined;
  }

  number(dict: PDFDict | undefined, key: string): number | undefined {
    const value = this.get(dict, key);
    return value instanceof this.#lib.PDFNumber ? value.asNumber() : undefined;
  }

  text(value: PDFObject | undefined): string | undefined {
    const resolved = this.resolve(value);
    if (resolved instanceof this.#lib.PDFString || resolved instanceof this.#lib.PDFHexString) {
      const text = resolved.decodeText().replaceAll('\u0000', '').trim();
      return text === '' ? undefined : text;
    }
    return undefined;
  }

  items(value: PDFObject | undefined): PDFObject[] {
    const resolved = this.resolve(value);
    if (resolved instanceof this.#lib.PDFArray) return resolved.asArray();
    return resolved === undefined ? [] : [resolved];
  }

  keyOf(value: PDFObject | undefined): string | undefined {
    return value instanceof this.#lib.PDFRef ? pageKeyOf(value) : undefined;
  }

  read(catalog: PDFDict, maxPages: number, maxStructureNodes: number): PdfObjectFacts {
    const lib = this.#lib;
    const shortfalls = new Set<PdfShortfall>();
    const encrypt = this.dict(this.#context.trailerInfo.Encrypt);
    this.#encrypted = encrypt !== undefined;
    const pages = this.#pages(catalog, maxPages, shortfalls);

    const viewer = this.dict(catalog.get(lib.PDFName.of('ViewerPreferences')));
    const display = this.get(viewer, 'DisplayDocTitle');
    const displayDocTitle = display instanceof lib.PDFBool ? display.asBoolean() : false;

    // ISO 32000-1, table 22, and ISO 14289-1, 7.16: bit 10 of P lets assistive technology extract
    // the text. (Revision 2 handlers predate the bit; what they write has it set, as every bit past 6.)
    let accessibilityBlocked: boolean | null = null;
    const permissions = encrypt === undefined ? undefined : this.number(encrypt, 'P');
    if (permissions !== undefined) accessibilityBlocked = ((permissions >>> 0) & 0x200) === 0;

    const structure = this.#structure(catalog, pages, maxStructureNodes, shortfalls);
    const catalogLanguage = this.#encrypted ? undefined : this.text(catalog.get(lib.PDFName.of('Lang')));
    if (catalogLanguage !== undefined) structure.languageTags.unshift({ tag: catalogLanguage });
    // Without a document language, text may carry its own in a marked content property list, which
    // pdf.js does not pass on: the pages that declare one are noted (only then, and only for tags).
    const languageInContent = structure.structureTree && catalog.get(lib.PDFName.of('Lang')) === undefined ? this.#languageInContent(pages) : new Set<string>();

    return {
      pageKeys: pages.map((page) => page.key),
      ...this.#pageResources(pages, shortfalls),
      fieldTooltips: this.#fieldTooltips(pages, shortfalls),
      displayDocTitle,
      accessibilityBlocked,
      dynamicXfa: this.#dynamicXfa(catalog),
      languageInContent,
      shortfalls,
      ...structure,
    };
  }

  /**
   * The pages whose content streams give marked content a language (`/Lang` in a property list):
   * whether the name is there at all, not which text it covers, so such a page's text counts as
   * having a language. Decoded bytes are bounded; past the bound, pages are not looked at.
   */
  #languageInContent(pages: PdfPageObject[]): Set<string> {
    const lib = this.#lib;
    const found = new Set<string>();
    let decoded = 0;
    for (const page of pages) {
      for (const part of this.items(page.dict.get(lib.PDFName.of('Contents')))) {
        const stream = this.resolve(part);
        if (!(stream instanceof lib.PDFRawStream) || decoded > MAX_CONTENT_BYTES_FOR_LANGUAGE) continue;
        let bytes: Uint8Array;
        try {
          bytes = lib.decodePDFRawStream(stream).decode();
        } catch {
          continue;
        }
        decoded += bytes.length;
        if (/\/Lang\s*[(<]/.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'))) {
          found.add(page.key);
          break;
        }
      }
    }
    return found;
  }

  /** The leaves of the page tree in order, up to `maxPages`, each with the resources it inherits. */
  #pages(catalog: PDFDict, maxPages: number, shortfalls: Set<PdfShortfall>): PdfPageObject[] {
    const pages: PdfPageObject[] = [];
    const seen = new Set<PDFObject>();
    const visit = (value: PDFObject | undefined, inherited: PDFDict | undefined, depth: number): void => {
      if (pages.length >= maxPages) return;
      const node = this.dict(value);
      if (node === undefined || seen.has(node)) {
        if (node !== undefined) shortfalls.add('structure-cycle');
        return;
      }
      seen.add(node);
      const resources = this.dict(node.get(this.#lib.PDFName.of('Resources'))) ?? inherited;
      const kids = this.get(node, 'Kids');
      if (kids instanceof this.#lib.PDFArray) {
        if (depth >= MAX_PAGE_TREE_DEPTH) return void shortfalls.add('structure-depth');
        for (const kid of kids.asArray()) visit(kid, resources, depth + 1);
        return;
      }
      const key = this.keyOf(value);
      if (key !== undefined) pages.push({ key, dict: node, resources });
    };
    visit(catalog.get(this.#lib.PDFName.of('Pages')), undefined, 0);
    return pages;
  }

  /** A role through the role map to a standard type (a custom role that maps nowhere stays as it is). */
  #role(name: string, roleMap: PDFDict | undefined): string {
    let role = name;
    for (let hop = 0; hop < MAX_ROLE_MAP_HOPS && !STANDARD_ROLES.has(role); hop++) {
      const mapped = this.name(roleMap, role);
      if (mapped === undefined || mapped === role) break;
      role = mapped;
    }
    return role;
  }

  /** Whether an element's attributes (A: a dictionary, a stream or an array of them) give table headers. */
  #cellHeaders(element: PDFDict): boolean {
    for (const item of this.items(element.get(this.#lib.PDFName.of('A')))) {
      const attributes = this.dict(item);
      if (attributes === undefined) continue;
      if (this.get(attributes, 'Headers') !== undefined || this.get(attributes, 'Scope') !== undefined) return true;
    }
    return false;
  }

  /**
   * One walk of the tag structure, depth first in reading order, with an explicit stack (no recursion
   * to overflow): each element's role, description and language, which marked content and annotations
   * it owns, and the figures, tables and headings.
   */
  #structure(catalog: PDFDict, pages: PdfPageObject[], maxNodes: number, shortfalls: Set<PdfShortfall>) {
    const lib = this.#lib;
    const facts = {
      structureTree: false,
      languageTags: [] as { tag: string; page?: number }[],
      figures: [] as PdfFigure[],
      tables: [] as PdfTable[],
      headings: [] as DocumentHeading[],
      markedContent: new Map<string, Map<number, ContentOwner>>(),
      annotations: new Map<string, ContentOwner>(),
    };
    const root = this.dict(catalog.get(lib.PDFName.of('StructTreeRoot')));
    if (root === undefined) return facts;
    const roleMap = this.dict(root.get(lib.PDFName.of('RoleMap')));
    const pageNumbers = new Map(pages.map((page, index) => [page.key, index + 1]));
    const languages = new Map<string, number | undefined>();

    interface Frame {
      value: PDFObject;
      depth: number;
      page: string | undefined;
      owner: ContentOwner | null;
      table: PdfTable | null;
    }
    const stack: Frame[] = [];
    const push = (children: PDFObject | undefined, frame: Omit<Frame, 'value'>) => {
      // Pushed in reverse so that they come off the stack in reading order.
      const kids = this.items(children);
      for (let index = kids.length - 1; index >= 0; index--) stack.push({ value: kids[index]!, ...frame });
    };
    push(root.get(lib.PDFName.of('K')), { depth: 0, page: undefined, owner: null, table: null });
    facts.structureTree = stack.length > 0;
    const seen = new Set<PDFObject>();
    let nodes = 0;

    const own = (page: string | undefined, mcid: number, owner: ContentOwner | null) => {
      if (page === undefined || owner === null || !Number.isInteger(mcid)) return;
      let onPage = facts.markedContent.get(page);
      if (onPage === undefined) facts.markedContent.set(page, (onPage = new Map()));
      onPage.set(mcid, owner);
    };

    while (stack.length > 0) {
      const frame = stack.pop()!;
      if (++nodes > maxNodes) {
        shortfalls.add('structure-size');
        break;
      }
      const value = this.resolve(frame.value);
      if (value instanceof lib.PDFNumber) {
        own(frame.page, value.asNumber(), frame.owner);
        continue;
      }
      const dict = this.dict(value);
      if (dict === undefined) continue;
      if (seen.has(dict)) {
        shortfalls.add('structure-cycle');
        continue;
      }
      seen.add(dict);
      const page = this.keyOf(dict.get(lib.PDFName.of('Pg'))) ?? frame.page;
      const type = this.name(dict, 'Type');
      if (type === 'MCR') {
        const mcid = this.number(dict, 'MCID');
        if (mcid !== undefined) own(page, mcid, frame.owner);
        continue;
      }
      if (type === 'OBJR') {
        const key = this.keyOf(dict.get(lib.PDFName.of('Obj')));
        if (key !== undefined && frame.owner !== null) facts.annotations.set(key, frame.owner);
        continue;
      }
      if (frame.depth >= MAX_STRUCTURE_DEPTH) {
        shortfalls.add('structure-depth');
        continue;
      }

      const role = this.#role(this.name(dict, 'S') ?? '', roleMap);
      const pageNumber = page === undefined ? undefined : pageNumbers.get(page);
      const at = pageNumber === undefined ? {} : { page: pageNumber };
      const described = hasText(lib, this.get(dict, 'Alt'), this.#encrypted) || hasText(lib, this.get(dict, 'ActualText'), this.#encrypted);
      const language = this.get(dict, 'Lang');
      if (!this.#encrypted) {
        const tag = this.text(language);
        if (tag !== undefined && !languages.has(tag)) languages.set(tag, pageNumber);
      }
      const owner: ContentOwner = {
        role,
        language: (frame.owner?.language ?? false) || hasText(lib, language, this.#encrypted),
        described: (frame.owner?.described ?? false) || described,
      };
      let table = frame.table;
      if (role === 'Figure' || role === 'Formula') {
        facts.figures.push({ role, described: owner.described, ...at });
      } else if (role === 'Table') {
        table = { rows: 0, headers: false, ...at };
        facts.tables.push(table);
      } else if (/^H[1-6]$/.test(role)) {
        facts.headings.push({ level: Number(role.slice(1)), ...at });
      } else if (table !== null) {
        if (role === 'TR') table.rows++;
        else if (role === 'TH' || ((role === 'TD') && this.#cellHeaders(dict))) table.headers = true;
      }
      push(dict.get(lib.PDFName.of('K')), { depth: frame.depth + 1, page, owner, table });
    }
    facts.languageTags.push(...[...languages].map(([tag, page]) => (page === undefined ? { tag } : { tag, page })));
    return facts;
  }

  /**
   * A dynamic XFA form (ISO 14289-1, 7.15): the catalog says it needs rendering, or the form's own
   * configuration asks for dynamic rendering.
   */
  #dynamicXfa(catalog: PDFDict): boolean {
    const lib = this.#lib;
    const form = this.dict(catalog.get(lib.PDFName.of('AcroForm')));
    const xfa = this.get(form, 'XFA');
    if (xfa === undefined) return false;
    const needsRendering = this.get(catalog, 'NeedsRendering');
    if (needsRendering instanceof lib.PDFBool && needsRendering.asBoolean()) return true;
    // XFA is one stream, or an array of packet names and streams; the config packet holds the setting.
    let config: PDFObject | undefined;
    if (xfa instanceof lib.PDFArray) {
      const parts = xfa.asArray();
      for (let index = 0; index + 1 < parts.length && index < 200; index += 2) {
        if (this.text(parts[index]) === 'config') config = this.resolve(parts[index + 1]);
      }
    } else config = xfa;
    if (!(config instanceof lib.PDFRawStream) || this.#encrypted) return false;
    let xml: string;
    try {
      xml = Buffer.from(lib.decodePDFRawStream(config).decode()).toString('utf8');
    } catch {
      return false;
    }
    let inside = false;
    let dynamic = false;
    const parser = new Parser({
      onopentag: (name) => (inside = name.endsWith('dynamicrender')),
      onclosetag: () => (inside = false),
      ontext: (text) => {
        if (inside && text.trim() === 'required') dynamic = true;
      },
    }, { xmlMode: false, decodeEntities: true });
    parser.write(xml);
    parser.end();
    return dynamic;
  }

  /** The widgets of the pages read whose field or a parent field has a tooltip (TU). */
  #fieldTooltips(pages: PdfPageObject[], shortfalls: Set<PdfShortfall>): Set<string> {
    const lib = this.#lib;
    const described = new Set<string>();
    for (const page of pages) {
      const annotations = this.items(page.dict.get(lib.PDFName.of('Annots')));
      if (annotations.length > MAX_ANNOTATIONS_PER_PAGE) shortfalls.add('resources-size');
      for (const reference of annotations.slice(0, MAX_ANNOTATIONS_PER_PAGE)) {
        const key = this.keyOf(reference);
        let field = this.dict(reference);
        if (key === undefined || this.name(field, 'Subtype') !== 'Widget') continue;
        const seen = new Set<PDFDict>();
        for (let depth = 0; field !== undefined && !seen.has(field) && depth < MAX_FIELD_DEPTH; depth++) {
          seen.add(field);
          if (hasText(lib, this.get(field, 'TU'), this.#encrypted)) {
            described.add(key);
            break;
          }
          field = this.dict(field.get(lib.PDFName.of('Parent')));
        }
      }
    }
    return described;
  }

  /** Each page's fonts and whether it may draw an image; each font once, with the first page naming it. */
  #pageResources(pages: PdfPageObject[], shortfalls: Set<PdfShortfall>): { pageResources: PdfPageResources[]; fonts: Map<string, PdfFont>; fontBoxes: Map<PdfFont, number[]> } {
    const fonts = new Map<string, PdfFont>();
    const fontBoxes = new Map<PdfFont, number[]>();
    const uses = new Map<PDFDict, number>();
    for (const page of pages) if (page.resources !== undefined) uses.set(page.resources, (uses.get(page.resources) ?? 0) + 1);
    const pageResources = pages.map((page, index) => {
      const found = this.#resourcesOf(page);
      if (found.truncated) shortfalls.add('resources-size');
      for (const [position, key] of found.fontKeys.entries()) {
        if (fonts.has(key)) continue;
        const dict = found.fonts[position]!;
        const font = this.#font(dict, index + 1);
        fonts.set(key, font);
        const box = this.#fontBox(dict);
        if (box !== undefined) fontBoxes.set(font, box);
      }
      // Resources shared by several pages name what any of them draws: an image there may be on another page.
      const shared = page.resources !== undefined && (uses.get(page.resources) ?? 0) > 1;
      return { fontKeys: found.fontKeys, images: found.images, imagesCertain: !shared };
    });
    return { pageResources, fonts, fontBoxes };
  }

  /** The fonts and images one page's resources name, form XObjects' resources included (bounded). */
  #resourcesOf(page: PdfPageObject): { fonts: PDFDict[]; fontKeys: string[]; images: boolean; truncated: boolean } {
    const lib = this.#lib;
    const fonts: PDFDict[] = [];
    const fontKeys: string[] = [];
    let images = false;
    let count = 0;
    let truncated = false;
    const seen = new Set<PDFObject>();
    const visit = (resources: PDFDict | undefined, depth: number): void => {
      if (resources === undefined || seen.has(resources)) return;
      seen.add(resources);
      const fontDict = this.dict(resources.get(lib.PDFName.of('Font')));
      for (const [, value] of fontDict?.entries() ?? []) {
        if (++count > MAX_RESOURCES_PER_PAGE) return void (truncated = true);
        const font = this.dict(value);
        if (font === undefined) continue;
        fonts.push(font);
        fontKeys.push(this.keyOf(value) ?? `direct${fonts.length}:${page.key}`);
      }
      const xobjects = this.dict(resources.get(lib.PDFName.of('XObject')));
      for (const [, value] of xobjects?.entries() ?? []) {
        if (++count > MAX_RESOURCES_PER_PAGE) return void (truncated = true);
        const xobject = this.dict(value);
        const subtype = this.name(xobject, 'Subtype');
        if (subtype === 'Image') images = true;
        else if (subtype === 'Form' && depth < MAX_FORM_DEPTH) visit(this.dict(xobject!.get(lib.PDFName.of('Resources'))), depth + 1);
      }
    };
    visit(page.resources, 0);
    return { fonts, fontKeys, images, truncated };
  }

  /** Facts of one font dictionary. */
  #font(dict: PDFDict, page: number): PdfFont {
    const lib = this.#lib;
    const subtype = this.name(dict, 'Subtype') ?? '';
    const baseFont = (this.name(dict, 'BaseFont') ?? '').replace(/^[A-Z]{6}\+/, '');
    const toUnicode = this.get(dict, 'ToUnicode') !== undefined;
    if (subtype === 'Type0') {
      const descendant = this.dict(this.items(this.get(dict, 'DescendantFonts'))[0]);
      const descriptor = this.dict(this.get(descendant, 'FontDescriptor'));
      const system = this.dict(this.get(descendant, 'CIDSystemInfo'));
      const registry = this.text(this.get(system, 'Registry'));
      const ordering = this.text(this.get(system, 'Ordering'));
      const encoding = this.name(dict, 'Encoding');
      const knownCollection = registry === 'Adobe' && ['GB1', 'CNS1', 'Japan1', 'Korea1'].includes(ordering ?? '');
      // A predefined Unicode CMap (UniJIS-UCS2-H...) maps its codes to Unicode by its name.
      const unicodeCMap = encoding !== undefined && /^Uni.*-(UCS2|UTF8|UTF16|UTF32)-[HV]$/.test(encoding);
      return {
        name: baseFont,
        page,
        embedded: this.#embedded(descriptor),
        standard: false,
        // An encrypted file's collection names are encrypted strings: only the mapping itself tells.
        unicode: toUnicode || unicodeCMap || (this.#encrypted ? null : knownCollection),
        composite: true,
      };
    }
    if (subtype === 'Type3') return { name: baseFont || 'Type 3', page, embedded: true, standard: false, unicode: toUnicode ? true : null, composite: false };
    const descriptor = this.dict(this.get(dict, 'FontDescriptor'));
    const standard = STANDARD_FONTS.test(baseFont);
    let unicode: boolean | null = toUnicode ? true : null;
    if (!toUnicode) {
      const encoding = this.get(dict, 'Encoding');
      const encodingDict = encoding instanceof lib.PDFDict ? encoding : undefined;
      const named = encoding instanceof lib.PDFName ? encoding.decodeText() : this.name(encodingDict, 'BaseEncoding');
      const differences = encodingDict !== undefined && this.get(encodingDict, 'Differences') !== undefined;
      // A standard encoding with no differences maps every code through the standard glyph names; a
      // standard text font without an Encoding uses its own (StandardEncoding). Anything else
      // depends on glyph names or the font program: the text as extracted tells.
      if (!differences && (['WinAnsiEncoding', 'MacRomanEncoding', 'StandardEncoding', 'PDFDocEncoding'].includes(named ?? '') || (named === undefined && standard))) unicode = true;
    }
    return { name: baseFont, page, embedded: subtype === 'Type3' || this.#embedded(descriptor), standard, unicode, composite: false };
  }

  /** The FontBBox of a font's descriptor (a composite font's descendant's). */
  #fontBox(dict: PDFDict): number[] | undefined {
    const lib = this.#lib;
    const holder = this.name(dict, 'Subtype') === 'Type0' ? this.dict(this.items(this.get(dict, 'DescendantFonts'))[0]) : dict;
    const box = this.get(this.dict(this.get(holder, 'FontDescriptor')), 'FontBBox');
    if (!(box instanceof lib.PDFArray) || box.size() !== 4) return undefined;
    const values = box.asArray().map((value) => this.resolve(value));
    return values.every((value) => value instanceof lib.PDFNumber) ? values.map((value) => (value as PdfLibModule.PDFNumber).asNumber()) : undefined;
  }

  #embedded(descriptor: PDFDict | undefined): boolean {
    return ['FontFile', 'FontFile2', 'FontFile3'].some((key) => this.get(descriptor, key) !== undefined);
  }
}

/** The 14 standard fonts (ISO 32000-1, 9.6.2.2), by the names files give them. */
const STANDARD_FONTS = /^(Helvetica|Times-Roman|Times|Courier|Symbol|ZapfDingbats)(-(Bold|Oblique|BoldOblique|Italic|BoldItalic))?$/;

