// What the document readers (pdf-reader.ts, office-reader.ts) learn from a PDF, Word or PowerPoint
// file, as plain data: it crosses from the reading thread to the checks (documents.ts).

export type DocumentType = 'pdf' | 'docx' | 'pptx';

export const DOCUMENT_TYPES: readonly DocumentType[] = ['pdf', 'docx', 'pptx'];

/** A link inside a document, as written there (resolved against the document's address later). */
export interface DocumentLink {
  raw: string;
  /** The text the link is on, when the format tells it. */
  text?: string;
  /** The PDF page or slide it is on. */
  page?: number;
}

/** A picture, chart or diagram of a Word or PowerPoint file. */
export interface DocumentImage {
  /** The name the editor gave the shape ("Picture 3"). */
  name: string;
  /** Its alternative text as written, or null when it has none. */
  alt: string | null;
  /** Marked decorative ("Mark as decorative"): it needs no alternative text. */
  decorative: boolean;
  /** The slide it is on. */
  page?: number;
  /** A chart or a SmartArt diagram rather than a picture (absent: a picture). */
  kind?: 'chart' | 'diagram';
}

/** Text of a document, by page or slide where the format has them. */
export interface DocumentText {
  text: string;
  page?: number;
}

/** A heading of a document, in reading order: its level (1 for H1 or Heading 1) and page. */
export interface DocumentHeading {
  level: number;
  page?: number;
}

interface CommonFacts {
  /** The title in the document's own properties, or null when it has none. */
  title: string | null;
  /** The document language (a BCP 47 tag as written), or null when none is set. */
  language: string | null;
  links: DocumentLink[];
  text: DocumentText[];
}

/** A Figure or Formula structure element of a tagged PDF. */
export interface PdfFigure {
  role: 'Figure' | 'Formula';
  page?: number;
  /** It, or an element around it, has alternative text (Alt) or a replacement text (ActualText). */
  described: boolean;
}

/** A Table structure element of a tagged PDF. */
export interface PdfTable {
  page?: number;
  /** Its rows (TR elements), header rows included. */
  rows: number;
  /** It has header cells: a TH, or a cell with Headers or Scope. */
  headers: boolean;
}

/** A link annotation (a clickable area) of a PDF page. */
export interface PdfLinkAnnotation {
  page: number;
  /** Its alternate description (Contents). */
  contents: boolean;
  /** Owned by a Link structure element; null when the PDF has no tags. */
  tagged: boolean | null;
  /** Its Link element has Alt or ActualText. */
  elementDescribed: boolean;
  /** The words under it on the page, when there are any. */
  text?: string;
}

/** A form field's widget on a PDF page. */
export interface PdfFormField {
  page: number;
  /** Its name for people (TU, the tooltip), or its Form element's Alt. */
  described: boolean;
}

/** A font that the pages read draw with (from their resources). */
export interface PdfFont {
  /** Its PostScript name, without a subset prefix ("ABCDEF+"). */
  name: string;
  /** The first page whose resources name it. */
  page: number;
  /** Its font program is in the file (a Type 3 font draws its glyphs itself: always true). */
  embedded: boolean;
  /** One of the 14 standard fonts every PDF reader carries (Helvetica, Times, Courier, Symbol, ZapfDingbats). */
  standard: boolean;
  /**
   * Whether its character codes map to Unicode by the rules of ISO 32000-1, 9.10.2: a ToUnicode map,
   * a standard encoding, or a known CJK collection (Adobe-GB1, -CNS1, -Japan1, -Korea1); null when only
   * the font program could tell (glyph names, a symbolic font's own encoding).
   */
  unicode: boolean | null;
  /** A composite (Type 0, CID-keyed) font. */
  composite: boolean;
  /**
   * For a font neither embedded nor standard: a page naming it shows visible text (text in render
   * modes 3 and 7, OCR text over a scan, needs no font program); false when the pages looked at show
   * none, or were past the number of pages looked at.
   */
  visible?: boolean;
}

/** What the text of one PDF page is made of, as extracted. */
export interface PdfPageText {
  page: number;
  /** Characters of text (no white space), artifacts (headers, footers, page numbers) left out. */
  chars: number;
  /** Characters that map to nothing readable: U+FFFD, control and private-use characters. */
  unmappedChars: number;
  /** In a tagged PDF: characters outside any structure element and not marked as artifacts. */
  untaggedChars: number;
  /** In a tagged PDF: characters of tagged text whose element (or an element around it) has no language. */
  charsWithoutLanguage: number;
}

/** A limit or a fault that stopped part of the reading: what was found stands, the rest was not checked. */
export type PdfShortfall = 'structure-depth' | 'structure-size' | 'structure-cycle' | 'objects-unreadable' | 'resources-size';

/** What a PDF's objects (its catalog and tag structure) say, beside its text. */
export interface PdfCatalogFacts {
  /** The title is shown in the window's title bar (ViewerPreferences DisplayDocTitle); null when it cannot be read. */
  displayDocTitle: boolean | null;
  /** Encrypted, and the permissions bar assistive technology from the text (P bit 10 clear); null when not encrypted. */
  accessibilityBlocked: boolean | null;
  /** Its form is a dynamic XFA form: most readers show nothing but a "please wait" message. */
  dynamicXfa: boolean;
  /** Every language tag in the document (catalog, structure elements), each once, with the first page it is on. */
  languageTags: { tag: string; page?: number }[];
  figures: PdfFigure[];
  tables: PdfTable[];
  /** Numbered headings (H1-H6) of the tag structure, in reading order. */
  headings: DocumentHeading[];
}

export interface PdfFacts extends CommonFacts, PdfCatalogFacts {
  type: 'pdf';
  pages: number;
  /** Pages read for text and links; fewer than `pages` when the document is beyond the page limit. */
  pagesRead: number;
  /** Has a tag structure (a structure tree). */
  tagged: boolean;
  /** Pages (of those read) that carry no text a reader can select. */
  textlessPages: number[];
  /** Of the textless pages, those that draw an image. */
  imagePages: number[];
  /**
   * Of the textless pages, those whose fonts map to Unicode although pdf.js read no text with them (some
   * CID-keyed fonts): other readers read their text, so they are not scans.
   */
  unreadTextPages: number[];
  linkAnnotations: PdfLinkAnnotation[];
  formFields: PdfFormField[];
  fonts: PdfFont[];
  /** Per page read. */
  pageText: PdfPageText[];
  /**
   * Tagged, with text, and every character of that text (artifacts aside) in a structure element that
   * has a language, or inside one that has: PDF/UA's language rule is then met without a document language.
   */
  textLanguages: boolean;
  /** Why part of the file was not checked, when a limit or a fault stopped a walk. */
  shortfalls: PdfShortfall[];
}

/** A table of a Word file. */
export interface DocxTable {
  rows: number;
  columns: number;
  /** Its first row repeats as a header row (w:tblHeader). */
  headerRow: boolean;
}

/** A limit that stopped the reading of an Office file early: what was read stands, the rest was not. */
export type OfficeShortfall = { limit: 'xml-depth'; max: number } | { limit: 'slides'; max: number; total: number };

export interface DocxFacts extends CommonFacts {
  type: 'docx';
  /** Limits the reading reached, each once. */
  shortfalls: OfficeShortfall[];
  /** Pages as the editor counted them when it saved the file (docProps/app.xml), when it did. */
  pages: number | null;
  words: number;
  /** Paragraphs with a heading style or an outline level. */
  headings: number;
  /** The headings of the body, in order, with their levels. */
  headingLevels: DocumentHeading[];
  tables: DocxTable[];
  images: DocumentImage[];
}

export interface PptxFacts extends CommonFacts {
  type: 'pptx';
  slides: number;
  /** Limits the reading reached, each once (slides past `maxPages` are not read). */
  shortfalls: OfficeShortfall[];
  /** Slides whose title placeholder is missing or empty. */
  untitledSlides: number[];
  /** Titled slides on which a screen reader meets other content before the title (reading order). */
  titleNotFirstSlides: number[];
  images: DocumentImage[];
}

export type DocumentFacts = PdfFacts | DocxFacts | PptxFacts;

/** Why a document could not be read, for the not-scanned list. */
export type DocumentFailureKind = 'password' | 'malformed' | 'too-large' | 'timeout' | 'crashed';

export interface DocumentFailure {
  kind: DocumentFailureKind;
  /** What the reader said, for the logs and the not-scanned reason's detail (never a file's content). */
  detail?: string;
}

/** The limits every document is read within. */
export interface DocumentLimits {
  /** Bytes downloaded; a bigger file is not read at all. */
  maxBytes: number;
  /** Pages of a PDF, and slides of a presentation, read. */
  maxPages: number;
  /** Levels of nested elements read in an Office file's XML part; what lies deeper is not read. */
  maxXmlDepth: number;
  /** Bytes an Office file's parts may unpack to, all parts read together. */
  maxUnpackedBytes: number;
  /** Entries in an Office file's zip. */
  maxZipEntries: number;
  /** Characters of text kept per document for the text checks. */
  maxTextChars: number;
  /** Links kept per document. */
  maxLinks: number;
  /** Objects of a PDF's tag structure walked (elements and their content references). */
  maxStructureNodes: number;
  /** Time to read one document, in milliseconds. */
  timeoutMs: number;
  /** Heap of the reading thread, in MB. */
  heapMb: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxPages: 500,
  // Word and PowerPoint nest a few dozen levels (tables in tables, groups of shapes); 256 leaves room
  // for any real file, while a file nested 300,000 deep stops at once instead of taking the reader's
  // whole time limit.
  maxXmlDepth: 256,
  maxUnpackedBytes: 64 * 1024 * 1024,
  maxZipEntries: 5_000,
  maxTextChars: 1_000_000,
  maxLinks: 2_000,
  // A 500-page book tagged down to each word has about 200 structure nodes a page: 100,000 nodes.
  // Past two and a half times that the file is a generator's accident or an attack: the walk stops
  // there (the file is said to be not fully checked), well before the heap limit.
  maxStructureNodes: 250_000,
  timeoutMs: 60_000,
  heapMb: 256,
};

/** The document type an address or file name names by its extension, if it is one CTPO reads. */
export function documentTypeOf(pathOrUrl: string): DocumentType | null {
  const path = pathOrUrl.split(/[?#]/)[0] ?? '';
  const match = /\.(pdf|docx|pptx)$/i.exec(path);
  return match ? (match[1]!.toLowerCase() as DocumentType) : null;
}

/** Raised by the readers: the document is not readable for a reason the report can name. */
export class DocumentReadError extends Error {
  readonly kind: DocumentFailureKind;

  constructor(kind: DocumentFailureKind, detail: string) {
    super(detail);
    this.name = 'DocumentReadError';
    this.kind = kind;
  }
}
