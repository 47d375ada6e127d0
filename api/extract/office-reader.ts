// Reads what the document checks need from Word (.docx) and PowerPoint (.pptx) files: a zip of XML
// parts (Office Open XML). yauzl reads the zip within limits (entries, unpacked bytes, and each
// part's real size against the size it declares, so a zip bomb stops early); htmlparser2 reads each
// XML part as a stream of tags. Runs in the document worker (document-worker.ts).
import { Parser } from 'htmlparser2';
import yauzl from 'yauzl';
import { DocumentReadError, type DocumentHeading, type DocumentImage, type DocumentLimits, type DocumentLink, type DocumentText, type DocxFacts, type DocxTable, type OfficeShortfall, type PptxFacts } from './document-facts.ts';

type Attributes = Record<string, string>;

interface ZipPackage {
  has(name: string): boolean;
  /** A part's text, or null when the package has no such part. */
  read(name: string): Promise<string | null>;
  close(): void;
}

// A password-protected Office file is not a zip but an OLE compound file holding the encrypted package.
const COMPOUND_FILE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ENCRYPTION_INFO = Buffer.from('EncryptionInfo', 'utf16le');

function openZip(bytes: Buffer, limits: DocumentLimits, kind: string): Promise<ZipPackage> {
  if (bytes.subarray(0, 8).equals(COMPOUND_FILE)) {
    if (bytes.includes(ENCRYPTION_INFO)) throw new DocumentReadError('password', `The ${kind} file is encrypted.`);
    throw new DocumentReadError('malformed', `The ${kind} file is in the old binary format, not Office Open XML.`);
  }
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) return reject(new DocumentReadError('malformed', `Not a readable ${kind} file (${error?.message ?? 'no zip'}).`));
      const entries = new Map<string, yauzl.Entry>();
      let unpacked = 0;
      zip.on('error', (problem: Error) => reject(new DocumentReadError('malformed', problem.message)));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entries.size >= limits.maxZipEntries) {
          zip.close();
          reject(new DocumentReadError('too-large', `More than ${limits.maxZipEntries} parts.`));
          return;
        }
        entries.set(entry.fileName.replace(/^\//, '').toLowerCase(), entry);
        zip.readEntry();
      });
      zip.on('end', () => {
        resolve({
          has: (name) => entries.has(name.toLowerCase()),
          read: (name) => {
            const entry = entries.get(name.toLowerCase());
            if (entry === undefined) return Promise.resolve(null);
            if (entry.isEncrypted()) return Promise.reject(new DocumentReadError('password', `The ${kind} file is encrypted.`));
            // The declared size is checked before reading; yauzl stops a part that unpacks to more.
            unpacked += entry.uncompressedSize;
            if (unpacked > limits.maxUnpackedBytes) {
              return Promise.reject(new DocumentReadError('too-large', `Its parts unpack to more than ${Math.round(limits.maxUnpackedBytes / 1024 / 1024)} MB.`));
            }
            return new Promise<string>((done, fail) => {
              zip.openReadStream(entry, (streamError, stream) => {
                if (streamError || !stream) return fail(new DocumentReadError('malformed', streamError?.message ?? 'unreadable part'));
                const chunks: Buffer[] = [];
                stream.on('data', (chunk: Buffer) => chunks.push(chunk));
                // yauzl stops a part that unpacks to more than it declared: a zip bomb, not a damaged file.
                stream.on('error', (problem: Error) => fail(new DocumentReadError(/too many bytes/i.test(problem.message) ? 'too-large' : 'malformed', problem.message)));
                stream.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
              });
            });
          },
          close: () => zip.close(),
        });
      });
      zip.readEntry();
    });
  });
}

/** Thrown inside a walk to stop it: the part is nested deeper than the limit. */
class TooDeep extends Error {}

/** The depth limit of one package's reading, and whether a part reached it. */
interface XmlBudget {
  readonly maxDepth: number;
  reached: boolean;
}

/**
 * Streams an XML part's tags; names keep their prefixes (`w:p`), as Office writes them. A part
 * nested deeper than the budget allows is read up to the element that goes past it and no further:
 * the parser is stopped there, so the time spent stays linear in what was read.
 */
function walkXml(xml: string, budget: XmlBudget, handlers: { open?: (name: string, attributes: Attributes) => void; close?: (name: string) => void; text?: (text: string) => void }): void {
  let depth = 0;
  const parser = new Parser(
    {
      onopentag: (name, attributes) => {
        if (++depth > budget.maxDepth) throw new TooDeep();
        handlers.open?.(name, attributes);
      },
      onclosetag: (name) => {
        depth--;
        handlers.close?.(name);
      },
      ontext: (text) => handlers.text?.(text),
    },
    { xmlMode: true, decodeEntities: true },
  );
  try {
    parser.write(xml);
    parser.end();
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    budget.reached = true;
  }
}

function shortfallsOf(budget: XmlBudget): OfficeShortfall[] {
  return budget.reached ? [{ limit: 'xml-depth', max: budget.maxDepth }] : [];
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** Relationship id -> target, for the external links (hyperlinks) of a part. */
function externalTargets(relsXml: string | null, budget: XmlBudget): Map<string, string> {
  const targets = new Map<string, string>();
  if (relsXml === null) return targets;
  walkXml(relsXml, budget, {
    open: (name, attributes) => {
      if (localName(name) !== 'Relationship') return;
      if (/\/hyperlink$/.test(attributes.Type ?? '') && attributes.Id && attributes.Target) targets.set(attributes.Id, attributes.Target);
    },
  });
  return targets;
}

/** Relationship id -> target part path, resolved against the part's folder. */
function partTargets(relsXml: string | null, folder: string, budget: XmlBudget): Map<string, string> {
  const targets = new Map<string, string>();
  if (relsXml === null) return targets;
  walkXml(relsXml, budget, {
    open: (name, attributes) => {
      if (localName(name) !== 'Relationship' || attributes.TargetMode === 'External' || !attributes.Id || !attributes.Target) return;
      const target = attributes.Target.startsWith('/') ? attributes.Target.slice(1) : new URL(attributes.Target, `http://part/${folder}`).pathname.slice(1);
      targets.set(attributes.Id, target);
    },
  });
  return targets;
}

function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** The title in docProps/core.xml, and its dc:language (a language set for the whole package). */
function readCore(xml: string | null, budget: XmlBudget): { title: string | null; language: string | null } {
  let title = '';
  let language = '';
  let inside: 'title' | 'language' | null = null;
  if (xml !== null) {
    walkXml(xml, budget, {
      open: (name) => (inside = name === 'dc:title' ? 'title' : name === 'dc:language' ? 'language' : null),
      close: () => (inside = null),
      text: (text) => {
        if (inside === 'title') title += text;
        else if (inside === 'language') language += text;
      },
    });
  }
  return { title: title.trim() || null, language: language.trim() || null };
}

/** Text kept within the character limit. */
class TextCollector {
  readonly parts: DocumentText[] = [];
  #chars = 0;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  add(text: string, page?: number): void {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean === '' || this.#chars >= this.#max) return;
    const kept = clean.slice(0, this.#max - this.#chars);
    this.#chars += kept.length;
    this.parts.push({ text: kept, ...(page === undefined ? {} : { page }) });
  }
}

const DECORATIVE_EXTENSION = '{C183D7F6-B498-43B3-948B-1728B52AA6E4}';

/** Tracks one drawing's alternative text and decorative mark (`a:extLst` holds the mark). */
interface Drawing {
  name: string;
  alt: string | null;
  decorative: boolean;
  /** A picture, chart or diagram: something that needs alternative text (a text box does not). */
  isImage: boolean;
  inDecorativeExt: boolean;
  kind?: 'chart' | 'diagram';
}

function drawingFrom(attributes: Attributes): Drawing {
  const alt = (attributes.descr ?? '').trim();
  return { name: attributes.name ?? '', alt: alt === '' ? null : alt, decorative: false, isImage: false, inDecorativeExt: false };
}

/** Marks a drawing decorative from Office's decorative extension inside its properties. */
function noteDecorative(drawing: Drawing, name: string, attributes: Attributes): void {
  const local = localName(name);
  if (local === 'ext' && attributes.uri?.toUpperCase() === DECORATIVE_EXTENSION) drawing.inDecorativeExt = true;
  if (local === 'decorative' && drawing.inDecorativeExt && /^(1|true)$/i.test(attributes.val ?? '')) drawing.decorative = true;
}

// ---- Word -------------------------------------------------------------------------------------

/** A w:outlineLvl value as a heading level (0-8 are Heading 1-9; 9 is body text). */
function outlineLevel(value: string | undefined): number | null {
  const level = Number(value);
  return Number.isInteger(level) && level >= 0 && level <= 8 ? level + 1 : null;
}

/** Heading styles' ids and levels: named "heading 1-9" or with an outline level, directly or inherited. */
function headingStyles(stylesXml: string | null, budget: XmlBudget): { ids: Map<string, number>; language: string | null } {
  // A style's outline level: a heading level, 0 for body text set on purpose (w:outlineLvl 9, as
  // Word's "TOC Heading" does to stop being a heading), null when the style does not say.
  const styles = new Map<string, { name: string; basedOn: string | null; outline: number | null }>();
  let current: { id: string; name: string; basedOn: string | null; outline: number | null } | null = null;
  let language: string | null = null;
  if (stylesXml !== null) {
    walkXml(stylesXml, budget, {
      open: (name, attributes) => {
        if (name === 'w:style' && attributes['w:type'] === 'paragraph' && attributes['w:styleId']) {
          current = { id: attributes['w:styleId'], name: '', basedOn: null, outline: null };
        } else if (current && name === 'w:name') current.name = attributes['w:val'] ?? '';
        else if (current && name === 'w:basedOn') current.basedOn = attributes['w:val'] ?? null;
        else if (current && name === 'w:outlineLvl') current.outline = outlineLevel(attributes['w:val']) ?? 0;
        else if (name === 'w:lang') language ??= attributes['w:val'] || attributes['w:bidi'] || attributes['w:eastAsia'] || null;
      },
      close: (name) => {
        if (name === 'w:style' && current) {
          styles.set(current.id, current);
          current = null;
        }
      },
    });
  }
  const ids = new Map<string, number>();
  for (const id of styles.keys()) {
    for (let style = styles.get(id), depth = 0; style && depth < 20; style = style.basedOn ? styles.get(style.basedOn) : undefined, depth++) {
      const named = /^heading ([1-9])$/i.exec(style.name);
      if (style.outline === 0) break;
      if (style.outline !== null || named) {
        ids.set(id, style.outline ?? Number(named![1]));
        break;
      }
    }
  }
  return { ids, language };
}

const HYPERLINK_FIELD = /\bHYPERLINK\s+"([^"]+)"/i;

/** Reads one Word part (the body, a header, a footnote part): text, headings, images and links. */
function readWordPart(xml: string, budget: XmlBudget, headingIds: Map<string, number>, hyperlinks: Map<string, string>, out: {
  text: TextCollector; links: DocumentLink[]; images: DocumentImage[]; counts: { words: number; headings: number }; languages: string[]; maxLinks: number;
  headingLevels: DocumentHeading[]; tables: DocxTable[];
}): void {
  let paragraph = '';
  let heading: number | null = null;
  // Open tables, innermost last, each with the cells of its current row.
  const tables: { table: DocxTable; cells: number }[] = [];
  let inText = false;
  let inInstruction = false;
  let instruction = '';
  let link: { raw: string; text: string } | null = null;
  let linkDepth = 0;
  let drawing: Drawing | null = null;
  let vmlAlt: string | null = null;
  const pushLink = (raw: string, text: string) => {
    if (out.links.length < out.maxLinks) out.links.push({ raw, ...(text.trim() === '' ? {} : { text: text.trim().slice(0, 200) }) });
  };

  walkXml(xml, budget, {
    open: (name, attributes) => {
      switch (name) {
        case 'w:p':
          paragraph = '';
          heading = null;
          break;
        case 'w:pStyle':
          heading = headingIds.get(attributes['w:val'] ?? '') ?? heading;
          break;
        case 'w:outlineLvl':
          // A paragraph's own outline level outranks its style's; 9 makes it body text.
          heading = outlineLevel(attributes['w:val']);
          break;
        case 'w:tbl': {
          const table: DocxTable = { rows: 0, columns: 0, headerRow: false };
          out.tables.push(table);
          tables.push({ table, cells: 0 });
          break;
        }
        case 'w:tr': {
          const open = tables.at(-1);
          if (open) {
            open.table.rows++;
            open.cells = 0;
          }
          break;
        }
        case 'w:tc': {
          const open = tables.at(-1);
          if (open) open.table.columns = Math.max(open.table.columns, ++open.cells);
          break;
        }
        case 'w:tblHeader': {
          // Repeat as header row, on the first row: what Word's checker and screen readers take as the header.
          const open = tables.at(-1);
          if (open?.table.rows === 1 && !/^(0|false|off)$/i.test(attributes['w:val'] ?? '')) open.table.headerRow = true;
          break;
        }
        case 'w:t':
          inText = true;
          break;
        case 'w:tab':
        case 'w:br':
          paragraph += ' ';
          if (link) link.text += ' ';
          break;
        case 'w:lang':
          for (const key of ['w:val', 'w:bidi', 'w:eastAsia']) if (attributes[key]) out.languages.push(attributes[key]);
          break;
        case 'w:hyperlink': {
          const target = attributes['r:id'] ? hyperlinks.get(attributes['r:id']) : undefined;
          if (target !== undefined && link === null) {
            link = { raw: target, text: '' };
            linkDepth = 1;
          } else if (link) linkDepth++;
          break;
        }
        case 'w:fldSimple': {
          const match = HYPERLINK_FIELD.exec(attributes['w:instr'] ?? '');
          if (match) pushLink(match[1]!, '');
          break;
        }
        case 'w:instrText':
          inInstruction = true;
          break;
        case 'w:fldChar':
          if (attributes['w:fldCharType'] === 'separate' || attributes['w:fldCharType'] === 'end') {
            const match = HYPERLINK_FIELD.exec(instruction);
            if (match) pushLink(match[1]!, '');
            instruction = '';
          }
          break;
        case 'w:drawing':
          drawing = { name: '', alt: null, decorative: false, isImage: false, inDecorativeExt: false };
          break;
        case 'wp:docPr':
          if (drawing) drawing = { ...drawingFrom(attributes), isImage: drawing.isImage, ...(drawing.kind === undefined ? {} : { kind: drawing.kind }) };
          break;
        case 'pic:pic':
          if (drawing) drawing.isImage = true;
          break;
        case 'c:chart':
        case 'dgm:relIds':
          if (drawing) Object.assign(drawing, { isImage: true, kind: name === 'c:chart' ? 'chart' : 'diagram' });
          break;
        case 'v:shape':
          vmlAlt = (attributes.alt ?? '').trim() || null;
          break;
        case 'v:imagedata':
          if (drawing === null) out.images.push({ name: attributes['o:title'] ?? '', alt: vmlAlt, decorative: false });
          break;
        default:
          if (drawing) noteDecorative(drawing, name, attributes);
      }
    },
    close: (name) => {
      if (name === 'w:t') inText = false;
      else if (name === 'w:instrText') inInstruction = false;
      else if (name === 'w:tbl') tables.pop();
      else if (name === 'w:p') {
        if (heading !== null && paragraph.trim() !== '') {
          out.counts.headings++;
          out.headingLevels.push({ level: heading });
        }
        out.text.add(paragraph);
      } else if (name === 'w:hyperlink' && link) {
        if (--linkDepth === 0) {
          pushLink(link.raw, link.text);
          link = null;
        }
      } else if (name === 'w:drawing' && drawing) {
        if (drawing.isImage) out.images.push({ name: drawing.name, alt: drawing.alt, decorative: drawing.decorative, ...(drawing.kind === undefined ? {} : { kind: drawing.kind }) });
        drawing = null;
      } else if (name === 'a:ext' && drawing) drawing.inDecorativeExt = false;
    },
    text: (text) => {
      if (inInstruction) instruction += text;
      if (!inText) return;
      paragraph += text;
      if (link) link.text += text;
      out.counts.words += text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
    },
  });
}

function readPagesCount(appXml: string | null, budget: XmlBudget): number | null {
  let pages = '';
  let inPages = false;
  if (appXml !== null) {
    walkXml(appXml, budget, { open: (name) => (inPages = localName(name) === 'Pages'), close: () => (inPages = false), text: (text) => inPages && (pages += text) });
  }
  const count = Number(pages.trim());
  return pages.trim() !== '' && Number.isSafeInteger(count) && count > 0 ? count : null;
}

export async function readDocx(bytes: Buffer, limits: DocumentLimits): Promise<DocxFacts> {
  const zip = await openZip(bytes, limits, 'Word');
  const budget: XmlBudget = { maxDepth: limits.maxXmlDepth, reached: false };
  try {
    if (!zip.has('word/document.xml')) throw new DocumentReadError('malformed', 'The file has no Word document part.');
    const core = readCore(await zip.read('docProps/core.xml'), budget);
    const styles = headingStyles(await zip.read('word/styles.xml'), budget);
    let settingsLanguage: string | null = null;
    const settings = await zip.read('word/settings.xml');
    if (settings !== null) {
      walkXml(settings, budget, { open: (name, attributes) => name === 'w:themeFontLang' && (settingsLanguage ??= attributes['w:val'] || attributes['w:bidi'] || attributes['w:eastAsia'] || null) });
    }
    const out = {
      text: new TextCollector(limits.maxTextChars), links: [] as DocumentLink[], images: [] as DocumentImage[], counts: { words: 0, headings: 0 }, languages: [] as string[], maxLinks: limits.maxLinks,
      headingLevels: [] as DocumentHeading[], tables: [] as DocxTable[],
    };
    // The body first, then what is printed around it (headers, footers, notes), each with its links.
    const rels = partTargets(await zip.read('word/_rels/document.xml.rels'), 'word/', budget);
    const parts = ['word/document.xml', ...[...rels.values()].filter((part) => /^word\/(header|footer|footnotes|endnotes)\d*\.xml$/i.test(part)).sort()];
    for (const part of parts) {
      const xml = await zip.read(part);
      if (xml === null) continue;
      // Headings and tables count in the body; headers, footers and notes only give text, images and links.
      const body = part === 'word/document.xml';
      const counts = body ? out.counts : { words: 0, headings: 0 };
      readWordPart(xml, budget, styles.ids, externalTargets(await zip.read(relsPathOf(part)), budget), { ...out, counts, ...(body ? {} : { headingLevels: [], tables: [] }) });
    }
    const language = core.language ?? styles.language ?? out.languages[0] ?? settingsLanguage;
    return {
      type: 'docx',
      title: core.title,
      language,
      pages: readPagesCount(await zip.read('docProps/app.xml'), budget),
      shortfalls: shortfallsOf(budget),
      words: out.counts.words,
      headings: out.counts.headings,
      headingLevels: out.headingLevels,
      tables: out.tables,
      images: out.images,
      links: out.links,
      text: out.text.parts,
    };
  } finally {
    zip.close();
  }
}

// ---- PowerPoint -------------------------------------------------------------------------------

const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);

/** Placeholders a screen reader passes by (date, slide number, footer), wherever they stand. */
const FURNITURE_PLACEHOLDERS = new Set(['dt', 'sldNum', 'ftr', 'hdr']);

interface SlideFacts {
  titled: boolean;
  /** Something a screen reader reads comes before the title in the slide's reading order (spTree order). */
  titleNotFirst: boolean;
  images: DocumentImage[];
  links: DocumentLink[];
  languages: string[];
  text: string;
}

/** One slide: its title placeholder (a text box is not one, however it looks), pictures and links. */
function readSlide(xml: string, budget: XmlBudget, hyperlinks: Map<string, string>, page: number): SlideFacts {
  const facts: SlideFacts = { titled: false, titleNotFirst: false, images: [], links: [], languages: [], text: '' };
  // The shape tree's own children are the slide's objects in reading order; each is followed while
  // open: whether it is the title, and whether it holds anything a screen reader reads.
  let depth = 0;
  let treeDepth = -1;
  let object: { title: boolean; content: boolean; furniture: boolean; decorative: boolean; text: string } | null = null;
  let contentBeforeTitle = false;
  let shapeIsTitle = false;
  let shapeText = '';
  let shapeDepth = 0;
  let picture: Drawing | null = null;
  let frame: Drawing | null = null;
  let runLink: string | null = null;
  let runText = '';
  let inRun = false;
  let inText = false;

  walkXml(xml, budget, {
    open: (name, attributes) => {
      depth++;
      if (name === 'p:spTree' && treeDepth === -1) treeDepth = depth;
      else if (treeDepth !== -1 && depth === treeDepth + 1 && !/^p:(nvGrpSpPr|grpSpPr|extLst)$/.test(name)) {
        object = { title: false, content: name === 'p:graphicFrame' || name === 'p:pic', furniture: false, decorative: false, text: '' };
      }
      if (object !== null) {
        if (name === 'p:pic' || name === 'p:graphicFrame') object.content = true;
        else if (name === 'p:ph') {
          if (TITLE_PLACEHOLDERS.has(attributes.type ?? '')) object.title = true;
          else if (FURNITURE_PLACEHOLDERS.has(attributes.type ?? '')) object.furniture = true;
        } else if (localName(name) === 'decorative' && /^(1|true)$/i.test(attributes.val ?? '')) object.decorative = true;
      }
      switch (name) {
        case 'p:sp':
          if (shapeDepth++ === 0) {
            shapeIsTitle = false;
            shapeText = '';
          }
          break;
        case 'p:ph':
          if (shapeDepth > 0 && TITLE_PLACEHOLDERS.has(attributes.type ?? '')) shapeIsTitle = true;
          break;
        case 'p:pic':
          picture = { name: '', alt: null, decorative: false, isImage: true, inDecorativeExt: false };
          break;
        case 'p:graphicFrame':
          frame = { name: '', alt: null, decorative: false, isImage: false, inDecorativeExt: false };
          break;
        case 'p:cNvPr': {
          const target = picture ?? frame;
          if (target) Object.assign(target, drawingFrom(attributes), { isImage: target.isImage, kind: target.kind });
          break;
        }
        case 'c:chart':
        case 'dgm:relIds':
          if (frame) Object.assign(frame, { isImage: true, kind: name === 'c:chart' ? 'chart' : 'diagram' });
          break;
        case 'a:r':
          inRun = true;
          runLink = null;
          runText = '';
          break;
        case 'a:t':
          inText = true;
          break;
        case 'a:hlinkClick': {
          // An action (ppaction://...) jumps within the presentation; only addresses are links.
          const target = attributes['r:id'] ? hyperlinks.get(attributes['r:id']) : undefined;
          if (target === undefined || (attributes.action ?? '').startsWith('ppaction://')) break;
          // A link on a run is recorded with its text when the run ends; one on a whole shape has none.
          if (inRun) runLink = target;
          else facts.links.push({ raw: target, page });
          break;
        }
        case 'a:rPr':
        case 'a:endParaRPr':
        case 'a:defRPr':
          if (attributes.lang) facts.languages.push(attributes.lang);
          break;
        default: {
          const drawing = picture ?? frame;
          if (drawing) noteDecorative(drawing, name, attributes);
        }
      }
    },
    close: (name) => {
      if (object !== null && treeDepth !== -1 && depth === treeDepth + 1) {
        const current = object;
        object = null;
        const reads = !current.decorative && !current.furniture && (current.content || current.text.trim() !== '');
        if (current.title && current.text.trim() !== '') {
          if (contentBeforeTitle && !facts.titleNotFirst && !facts.titled) facts.titleNotFirst = true;
        } else if (reads && !facts.titled) contentBeforeTitle = true;
      }
      if (name === 'p:spTree' && depth === treeDepth) treeDepth = -2;
      depth--;
      switch (name) {
        case 'a:t':
          inText = false;
          break;
        case 'a:r':
          inRun = false;
          if (runLink !== null) facts.links.push({ raw: runLink, page, ...(runText.trim() === '' ? {} : { text: runText.trim().slice(0, 200) }) });
          runLink = null;
          break;
        case 'a:p':
          shapeText += ' ';
          facts.text += ' ';
          break;
        case 'p:sp':
          if (--shapeDepth === 0 && shapeIsTitle && shapeText.trim() !== '') facts.titled = true;
          break;
        case 'p:pic':
          if (picture) facts.images.push({ name: picture.name, alt: picture.alt, decorative: picture.decorative, page });
          picture = null;
          break;
        case 'p:graphicFrame':
          if (frame?.isImage) facts.images.push({ name: frame.name, alt: frame.alt, decorative: frame.decorative, page, ...(frame.kind === undefined ? {} : { kind: frame.kind }) });
          frame = null;
          break;
        case 'a:ext':
          if (picture ?? frame) (picture ?? frame)!.inDecorativeExt = false;
          break;
      }
    },
    text: (text) => {
      if (!inText) return;
      if (object !== null) object.text += text;
      runText += text;
      shapeText += text;
      facts.text += text;
    },
  });
  return facts;
}

export async function readPptx(bytes: Buffer, limits: DocumentLimits): Promise<PptxFacts> {
  const zip = await openZip(bytes, limits, 'PowerPoint');
  const budget: XmlBudget = { maxDepth: limits.maxXmlDepth, reached: false };
  try {
    const presentation = await zip.read('ppt/presentation.xml');
    if (presentation === null) throw new DocumentReadError('malformed', 'The file has no PowerPoint presentation part.');
    const core = readCore(await zip.read('docProps/core.xml'), budget);
    const slideIds: string[] = [];
    const languages: string[] = [];
    walkXml(presentation, budget, {
      open: (name, attributes) => {
        if (name === 'p:sldId' && attributes['r:id']) slideIds.push(attributes['r:id']);
        else if ((name === 'a:defRPr' || name === 'a:rPr') && attributes.lang) languages.push(attributes.lang);
      },
    });
    const slideParts = partTargets(await zip.read('ppt/_rels/presentation.xml.rels'), 'ppt/', budget);
    const text = new TextCollector(limits.maxTextChars);
    const links: DocumentLink[] = [];
    const images: DocumentImage[] = [];
    const untitledSlides: number[] = [];
    const titleNotFirstSlides: number[] = [];
    // A deck may list the same slide part thousands of times: only the first slides are read.
    const slidesRead = Math.min(slideIds.length, limits.maxPages);
    for (const [index, id] of slideIds.slice(0, slidesRead).entries()) {
      const part = slideParts.get(id);
      const xml = part === undefined ? null : await zip.read(part);
      if (part === undefined || xml === null) continue;
      const page = index + 1;
      const slide = readSlide(xml, budget, externalTargets(await zip.read(relsPathOf(part)), budget), page);
      if (!slide.titled) untitledSlides.push(page);
      else if (slide.titleNotFirst) titleNotFirstSlides.push(page);
      images.push(...slide.images);
      links.push(...slide.links.slice(0, Math.max(0, limits.maxLinks - links.length)));
      languages.push(...slide.languages);
      text.add(slide.text, page);
    }
    return {
      type: 'pptx',
      title: core.title,
      language: core.language ?? languages.find((tag) => tag.trim() !== '') ?? null,
      slides: slideIds.length,
      shortfalls: [...shortfallsOf(budget), ...(slidesRead < slideIds.length ? [{ limit: 'slides' as const, max: limits.maxPages, total: slideIds.length }] : [])],
      untitledSlides,
      titleNotFirstSlides,
      images,
      links,
      text: text.parts,
    };
  } finally {
    zip.close();
  }
}
