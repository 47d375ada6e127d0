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

/** A picture or chart of a Word or PowerPoint file. */
export interface DocumentImage {
  /** The name the editor gave the shape ("Picture 3"). */
  name: string;
  /** Its alternative text as written, or null when it has none. */
  alt: string | null;
  /** Marked decorative ("Mark as decorative"): it needs no alternative text. */
  decorative: boolean;
  /** The slide it is on. */
  page?: number;
}

/** Text of a document, by page or slide where the format has them. */
export interface DocumentText {
  text: string;
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

export interface PdfFacts extends CommonFacts {
  type: 'pdf';
  pages: number;
  /** Pages read for text and links; fewer than `pages` when the document is beyond the page limit. */
  pagesRead: number;
  /** Has a tag structure (a structure tree). */
  tagged: boolean;
  /** Pages (of those read) that carry no text a reader can select. */
  textlessPages: number[];
}

export interface DocxFacts extends CommonFacts {
  type: 'docx';
  /** Pages as the editor counted them when it saved the file (docProps/app.xml), when it did. */
  pages: number | null;
  words: number;
  /** Paragraphs with a heading style or an outline level. */
  headings: number;
  images: DocumentImage[];
}

export interface PptxFacts extends CommonFacts {
  type: 'pptx';
  slides: number;
  /** Slides whose title placeholder is missing or empty. */
  untitledSlides: number[];
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
  /** Pages read for text and links. */
  maxPages: number;
  /** Bytes an Office file's parts may unpack to, all parts read together. */
  maxUnpackedBytes: number;
  /** Entries in an Office file's zip. */
  maxZipEntries: number;
  /** Characters of text kept per document for the text checks. */
  maxTextChars: number;
  /** Links kept per document. */
  maxLinks: number;
  /** Time to read one document, in milliseconds. */
  timeoutMs: number;
  /** Heap of the reading thread, in MB. */
  heapMb: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxPages: 500,
  maxUnpackedBytes: 64 * 1024 * 1024,
  maxZipEntries: 5_000,
  maxTextChars: 1_000_000,
  maxLinks: 2_000,
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
