// Makes the test documents (test/fixtures/documents/) and the demo course's documents
// (api/local/demo-course/documents/) with real tools, so the readers meet what editors really write:
//   node scripts/make-document-fixtures.ts            every file
//   node scripts/make-document-fixtures.ts pdfua      only the pdfua-*, headings-*, tables-* and
//                                                     reading-order-* files (the depth checks')
// Needs LibreOffice (`soffice`, e.g. Debian's libreoffice-writer-nogui and libreoffice-impress-nogui)
// only to make the files again; the tests use the committed files.
//
// - LibreOffice exports the tagged, untagged, password-protected and editing-restricted PDFs and the
//   Word files from flat OpenDocument sources written here, and makes the PowerPoint packages.
// - pdf-lib makes the PDFs no office suite writes on purpose: one without title or language, an
//   image-only scan, and an OCR'd scan whose text layer is invisible.
// - A few things LibreOffice 7.4 cannot express are set in its output afterwards, as Office writes
//   them: the "decorative" mark on an image, a Word file with no language at all, slide titles in
//   title placeholders (LibreOffice exports them as text boxes), and site-relative link targets.
//
// - The pdfua-* files are built from ISO 14289-1 (PDF/UA-1) as the Matterhorn Protocol lists its
//   failure conditions, each failing file beside a passing look-alike that differs in the one thing
//   the check looks at. pdf-lib writes their tag structure (structure elements, marked content,
//   the parent tree), annotations, form fields, fonts and catalog entries with its low-level objects
//   (see taggedPdf below); LibreOffice writes the Japanese pages (IPA fonts, CID-keyed), the tables
//   and headings of Word files, and the PDF whose security bars screen readers.
//
// Links inside the documents are site-relative (/library/...), so they resolve against wherever the
// document is served: the test site and the demo course answer /library/reading.html and not
// /library/missing.html.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { zip } from './zip-parts.ts';
import yauzl from 'yauzl';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFOperator, PDFOperatorNames, PDFString, StandardFonts, setTextRenderingMode, TextRenderingMode, type PDFPage, type PDFRef } from 'pdf-lib';

const ROOT = new URL('..', import.meta.url).pathname;
const FIXTURES = join(ROOT, 'test/fixtures/documents');
const DEMO = join(ROOT, 'api/local/demo-course/documents');
const FAKE_ORIGIN = 'https://course.example';
const work = mkdtempSync(join(tmpdir(), 'ctpo-documents-'));

// ---- small helpers ----------------------------------------------------------------------------

/** A PNG of grey bars that look like lines of print, `width` x `height`, made with zlib alone. */
function png(width: number, height: number): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width, 0xff);
    row[0] = 0;
    const line = y % 12 >= 4 && y % 12 < 9 && y > 10 && y < height - 10;
    if (line) for (let x = 10; x < width - 10 - ((y * 7) % 40); x++) row[1 + x] = (x % 9) < 6 ? 0x30 : 0xff;
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** Every part of a zip, in order. */
function unzip(bytes: Buffer): Promise<{ name: string; data: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const parts: { name: string; data: Buffer }[] = [];
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            parts.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(parts));
      file.readEntry();
    });
  });
}

/** Rewrites the XML parts of an Office file whose names match. */
async function editPackage(bytes: Buffer, edit: (name: string, xml: string) => string | null, add: { name: string; data: Buffer }[] = []): Promise<Buffer> {
  const parts = await unzip(bytes);
  const out = parts.map((part) => {
    if (!/\.(xml|rels)$/.test(part.name)) return part;
    const edited = edit(part.name, part.data.toString('utf8'));
    return edited === null ? part : { name: part.name, data: Buffer.from(edited, 'utf8') };
  });
  return zip([...out, ...add]);
}

/** Runs LibreOffice on sources of one kind, into one output format. */
function soffice(convertTo: string, inputs: string[], outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  const profile = `file://${join(work, 'profile')}`;
  const result = spawnSync('soffice', [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', convertTo, '--outdir', outDir, ...inputs], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`soffice failed (${result.status}): ${result.stderr}`);
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

// Prose that reads like a course handout and holds no placeholder words.
const WORDS = 'river wetland soil nutrient carbon forest habitat species migration rainfall drought sediment estuary canopy pollinator predator erosion watershed season sample'.split(' ');
function prose(words: number, seed: number): string[] {
  const paragraphs: string[] = [];
  let count = 0;
  let n = seed;
  while (count < words) {
    const sentences: string[] = [];
    for (let s = 0; s < 5 && count < words; s++) {
      const length = 8 + (n % 7);
      const picked = Array.from({ length }, (_, i) => WORDS[(n * 7 + i * 13) % WORDS.length]!);
      n = (n * 31 + 17) % 1009;
      count += length;
      sentences.push(`${picked[0]!.charAt(0).toUpperCase()}${picked[0]!.slice(1)} ${picked.slice(1).join(' ')}.`);
    }
    paragraphs.push(sentences.join(' '));
  }
  return paragraphs;
}

// ---- Writer sources ---------------------------------------------------------------------------

const ODF_NAMESPACES = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"';

interface WriterSource {
  title: string | null;
  body: string;
}

function fodt({ title, body }: WriterSource): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ODF_NAMESPACES} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:meta>${title === null ? '' : `<dc:title>${esc(title)}</dc:title>`}</office:meta>
<office:styles><style:default-style style:family="paragraph"><style:text-properties fo:language="en" fo:country="CA"/></style:default-style></office:styles>
<office:body><office:text>${body}</office:text></office:body></office:document>`;
}

const heading = (text: string, level = 1) => `<text:h text:outline-level="${level}">${esc(text)}</text:h>`;
const para = (text: string) => `<text:p>${text}</text:p>`;
const link = (path: string, text: string) => `<text:a xlink:type="simple" xlink:href="${FAKE_ORIGIN}${path}">${esc(text)}</text:a>`;
const pageBreak = '<text:p text:style-name="PageBreak"/>';
const image = (name: string, description: string | null) => {
  const data = png(120, 80).toString('base64');
  return `<text:p><draw:frame draw:name="${esc(name)}" text:anchor-type="as-char" svg:width="3cm" svg:height="2cm"><draw:image><office:binary-data>${data}</office:binary-data></draw:image>${description === null ? '' : `<svg:desc>${esc(description)}</svg:desc>`}</draw:frame></text:p>`;
};
// A page break needs an automatic style in the document; the flat source carries it inline.
const withPageBreakStyle = (xml: string) =>
  xml.replace('<office:body>', '<office:automatic-styles><style:style style:name="PageBreak" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style></office:automatic-styles><office:body>');

const SYLLABUS: WriterSource = {
  title: 'Environmental Science 101: syllabus',
  body: [
    heading('Environmental Science 101'),
    para('This course looks at how living things and their surroundings shape each other, from a single pond to the whole planet.'),
    heading('Readings', 2),
    pageBreak,
    para(`Start with the ${link('/library/reading.html', 'weekly reading')} and keep the ${link('/library/missing.html', 'field notebook guide')} at hand.`),
    para(`Marks are posted in the ${link('/d2l/le/content/9999/viewContent/1/View', 'gradebook of last term')}.`),
  ].join(''),
};

const CLEAN_DOCX: WriterSource = {
  title: 'Lab safety',
  body: [
    heading('Lab safety'),
    ...prose(120, 3).map((text) => para(esc(text))),
    heading('Equipment', 2),
    image('Heron', 'A grey heron standing in reeds at the edge of a pond'),
    image('Divider', null),
    para(`See the ${link('/library/reading.html', 'safety reading')}.`),
  ].join(''),
};

const SHORT_DOCX: WriterSource = {
  title: 'Week 1 notes',
  body: prose(200, 5).map((text) => para(esc(text))).join(''),
};

const LONG_DOCX: WriterSource = {
  title: null,
  body: [
    ...prose(900, 7).map((text) => para(esc(text))),
    image('Picture 1', null),
    image('Picture 2', 'IMG_2041.JPG'),
    para(`Hand in by [insert due date]. Bring the ${link('/library/missing.html', 'sampling sheet')}.`),
    ...prose(900, 11).map((text) => para(esc(text))),
  ].join(''),
};

// ---- PowerPoint slides, written as PowerPoint writes them ---------------------------------------

const P_NAMESPACES = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const DECORATIVE = '<a:extLst><a:ext uri="{C183D7F6-B498-43B3-948B-1728B52AA6E4}"><adec:decorative xmlns:adec="http://schemas.microsoft.com/office/drawing/2017/decorative" val="1"/></a:ext></a:extLst>';

type Shape =
  | { kind: 'title' | 'body'; runs: (string | { text: string; linkId: string })[] }
  | { kind: 'textbox'; text: string; big: boolean }
  | { kind: 'picture'; name: string; alt: string | null; decorative?: boolean }
  | { kind: 'chart' | 'diagram'; name: string; alt: string | null };

function run(part: string | { text: string; linkId: string }): string {
  if (typeof part === 'string') return `<a:r><a:rPr lang="en-CA" dirty="0"/><a:t>${esc(part)}</a:t></a:r>`;
  return `<a:r><a:rPr lang="en-CA" dirty="0"><a:hlinkClick r:id="${part.linkId}"/></a:rPr><a:t>${esc(part.text)}</a:t></a:r>`;
}

function slideXml(shapes: Shape[]): string {
  const body = shapes.map((shape, index) => {
    const id = index + 2;
    const box = `<p:spPr><a:xfrm><a:off x="838200" y="${365125 + index * 1500000}"/><a:ext cx="10515600" cy="1325563"/></a:xfrm></p:spPr>`;
    switch (shape.kind) {
      case 'title':
      case 'body':
        return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${shape.kind === 'title' ? 'Title' : 'Content Placeholder'} ${id}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph${shape.kind === 'title' ? ' type="title"' : ` idx="1"`}/></p:nvPr></p:nvSpPr>${box}<p:txBody><a:bodyPr/><a:lstStyle/><a:p>${shape.runs.map(run).join('')}</a:p></p:txBody></p:sp>`;
      case 'textbox':
        return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="TextBox ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>${box}<p:txBody><a:bodyPr wrap="square"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-CA" sz="${shape.big ? 4400 : 1800}" b="${shape.big ? 1 : 0}" dirty="0"/><a:t>${esc(shape.text)}</a:t></a:r></a:p></p:txBody></p:sp>`;
      case 'chart':
      case 'diagram':
        return CHART_FRAME(id, shape.name, shape.alt, shape.kind, 365125 + index * 1500000);
      case 'picture':
        return `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="${esc(shape.name)}"${shape.alt === null ? '' : ` descr="${esc(shape.alt)}"`}>${shape.decorative ? DECORATIVE : ''}</p:cNvPr><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rIdPicture"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>${box}</p:pic>`;
    }
  });
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:sld ${P_NAMESPACES}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${body.join('')}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;
}

interface SlideSource {
  shapes: Shape[];
  links?: Record<string, string>;
}

function fodp(title: string | null, slides: number): string {
  const pages = Array.from({ length: slides }, (_, i) => `<draw:page draw:name="page${i + 1}"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Slide ${i + 1}</text:p></draw:text-box></draw:frame></draw:page>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ODF_NAMESPACES} xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:meta>${title === null ? '' : `<dc:title>${esc(title)}</dc:title>`}</office:meta>
<office:styles><style:default-style style:family="graphic"><style:text-properties fo:language="en" fo:country="CA"/></style:default-style></office:styles>
<office:body><office:presentation>${pages}</office:presentation></office:body></office:document>`;
}

const CHART_RELATIONSHIPS = '<Relationship Id="rIdChart" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/><Relationship Id="rIdDiagramData" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData" Target="../diagrams/data1.xml"/>';
/** The smallest chart and diagram parts the frames above point at (a bar chart of two counts, one diagram point). */
const CHART_PARTS = [
  { name: 'ppt/charts/chart1.xml', data: Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart><c:plotArea><c:barChart><c:barDir val="col"/><c:ser><c:idx val="0"/><c:order val="0"/><c:val><c:numLit><c:ptCount val="2"/><c:pt idx="0"><c:v>4</c:v></c:pt><c:pt idx="1"><c:v>8</c:v></c:pt></c:numLit></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>') },
  { name: 'ppt/diagrams/data1.xml', data: Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:ptLst><dgm:pt modelId="{00000000-0000-0000-0000-000000000001}" type="doc"/></dgm:ptLst></dgm:dataModel>') },
];

/** A LibreOffice PowerPoint package whose slides are replaced by the given ones. */
async function presentation(base: Buffer, slides: SlideSource[]): Promise<Buffer> {
  const picture = png(160, 100);
  const charts = slides.some((slide) => slide.shapes.some((shape) => shape.kind === 'chart' || shape.kind === 'diagram'));
  const media = [{ name: 'ppt/media/ctpo-picture.png', data: picture }, ...(charts ? CHART_PARTS : [])];
  return editPackage(base, (name, xml) => {
    const slide = /^ppt\/slides\/slide(\d+)\.xml$/.exec(name);
    if (slide) return slideXml(slides[Number(slide[1]) - 1]!.shapes);
    const rels = /^ppt\/slides\/_rels\/slide(\d+)\.xml\.rels$/.exec(name);
    if (rels) {
      const source = slides[Number(rels[1]) - 1]!;
      const layout = /<Relationship [^>]*slideLayout[^>]*\/>/.exec(xml)?.[0] ?? '';
      const links = Object.entries(source.links ?? {}).map(([id, path]) => `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${esc(path)}" TargetMode="External"/>`);
      return `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${layout}<Relationship Id="rIdPicture" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/ctpo-picture.png"/>${links.join('')}${charts ? CHART_RELATIONSHIPS : ''}</Relationships>`;
    }
    if (name === '[Content_Types].xml' && !/Extension="png"/.test(xml)) return xml.replace('<Default ', '<Default Extension="png" ContentType="image/png"/><Default ');
    return null;
  }, media);
}

// ---- the Office edits LibreOffice 7.4 cannot make ---------------------------------------------

/** Site-relative link targets, as a file uploaded to the course would carry. */
const relativeLinks = (xml: string) => xml.replaceAll(FAKE_ORIGIN, '');

function markDecorative(xml: string, shapeName: string): string {
  return xml.replace(new RegExp(`(<wp:docPr [^>]*name="${shapeName}"[^>]*)>(</wp:docPr>)?`), `$1>${DECORATIVE.replace('<a:extLst>', '<a:extLst xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">')}</wp:docPr>`);
}

function withoutLanguage(name: string, xml: string): string {
  if (name === 'docProps/core.xml') return xml.replace(/<dc:language>[^<]*<\/dc:language>/g, '');
  return xml.replace(/<w:lang [^>]*\/>/g, '').replace(/<w:themeFontLang [^>]*\/>/g, '');
}

// ---- PDFs made with pdf-lib -------------------------------------------------------------------

function addLink(document: PDFDocument, pageIndex: number, rect: [number, number, number, number], uri: string): void {
  const page = document.getPage(pageIndex);
  const annotation = document.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: rect, Border: [0, 0, 0], A: { Type: 'Action', S: 'URI', URI: PDFString.of(uri) } });
  const reference = document.context.register(annotation);
  const existing = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (existing) existing.push(reference);
  else page.node.set(PDFName.of('Annots'), document.context.obj([reference]));
}

async function barePdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const font = await document.embedFont(StandardFonts.Helvetica);
  const first = document.addPage([612, 792]);
  first.drawText('Project rubric', { x: 72, y: 700, size: 20, font });
  first.drawText('Each criterion is marked out of five. Read the marking guide before you start.', { x: 72, y: 660, size: 11, font });
  first.drawText('Marking guide', { x: 72, y: 630, size: 11, font });
  addLink(document, 0, [70, 626, 150, 642], '/library/missing.html');
  const second = document.addPage([612, 792]);
  second.drawText('Presentation date: TBD. Peer review counts for twenty percent of the mark.', { x: 72, y: 700, size: 11, font });
  return document.save();
}

async function scanPdf(withTextLayer: boolean): Promise<Uint8Array> {
  const document = await PDFDocument.create({ updateMetadata: false });
  document.setTitle('Field guide, scanned chapter');
  document.catalog.set(PDFName.of('Lang'), PDFString.of('en-CA'));
  const font = await document.embedFont(StandardFonts.Helvetica);
  const scan = await document.embedPng(png(306, 396));
  for (let i = 0; i < 3; i++) {
    const page = document.addPage([612, 792]);
    page.drawImage(scan, { x: 0, y: 0, width: 612, height: 792 });
    if (withTextLayer) {
      // Text recognition writes the words it read as invisible text over the image (render mode 3).
      page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
      for (let line = 0; line < 20; line++) {
        page.drawText(`Line ${line + 1} of page ${i + 1}: wetland birds feed along the shallow edge of the water.`, { x: 20, y: 760 - line * 24, size: 10, font });
      }
    }
  }
  return document.save();
}

/** A LibreOffice PDF whose link targets become site-relative; its tags and the rest stay as written. */
async function relativePdf(bytes: Buffer): Promise<Uint8Array> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  for (const page of document.getPages()) {
    const annotations = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let i = 0; i < (annotations?.size() ?? 0); i++) {
      const action = annotations!.lookup(i, PDFDict).lookupMaybe(PDFName.of('A'), PDFDict);
      const uri = action?.lookupMaybe(PDFName.of('URI'), PDFString);
      if (action && uri) action.set(PDFName.of('URI'), PDFString.of(relativeLinks(uri.decodeText())));
    }
  }
  return document.save({ useObjectStreams: false });
}

// ---- tagged PDFs made with pdf-lib's low-level objects (the pdfua-* files) ---------------------

/** A structure element of a tagged PDF, and what it owns on its page. */
interface El {
  role: string;
  /** Text drawn on its page as marked content the element owns. */
  text?: string;
  /** A picture drawn as marked content the element owns. */
  image?: boolean;
  alt?: string;
  actualText?: string;
  lang?: string;
  /** A language on its marked content (the property list of its BDC) rather than on the element. */
  contentLang?: string;
  /** Table attributes (O /Table): Scope as a name, Headers as an array of IDs. */
  scope?: 'Row' | 'Column' | 'Both';
  headers?: string[];
  id?: string;
  page?: number;
  /** A link annotation over its text; owned by the element through an OBJR unless `tagged` is false. */
  link?: { uri: string; contents?: string; tagged?: boolean };
  kids?: El[];
}

interface TaggedSpec {
  title?: string | null;
  /** ViewerPreferences DisplayDocTitle (default true). */
  showTitle?: boolean;
  /** The catalog's Lang (default en-CA; null for none). */
  lang?: string | null;
  pages?: number;
  elements: El[];
  /** Text marked as artifacts (running headers, page numbers). */
  artifacts?: { page: number; text: string }[];
  /** Text drawn outside any marked content. */
  untagged?: { page: number; text: string }[];
  /** A text field, with its tooltip (TU) when given. */
  field?: { name: string; tooltip?: string };
}

const marked = (tag: string, properties?: PDFDict) =>
  // pdf-lib writes any object as an operand; its operand type leaves dictionaries out.
  properties === undefined ? PDFOperator.of(PDFOperatorNames.BeginMarkedContent, [PDFName.of(tag)]) : PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of(tag), properties as unknown as PDFName]);
const endMarked = () => PDFOperator.of(PDFOperatorNames.EndMarkedContent);

/**
 * A tagged PDF as ISO 32000-1 14.7-14.8 describe it: a StructTreeRoot whose elements own marked
 * content (MCIDs) on their pages and link annotations (OBJR), a ParentTree that maps each page's
 * MCIDs and each annotation back to its element, MarkInfo Marked, a title and a language.
 */
async function taggedPdf(spec: TaggedSpec): Promise<PDFDocument> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const { context } = document;
  const font = await document.embedFont(StandardFonts.Helvetica);
  const picture = await document.embedPng(png(120, 80));
  const pages = Array.from({ length: spec.pages ?? 1 }, () => document.addPage([612, 792]));
  const cursor = pages.map(() => 740);
  const parents = pages.map(() => [] as PDFRef[]);
  const annotationParents: PDFRef[] = [];
  const line = (pageIndex: number, height = 22) => (cursor[pageIndex]! -= height) + height;

  const drawOwned = (page: PDFPage, pageIndex: number, owner: PDFRef, role: string, draw: (y: number) => void, lang?: string): number => {
    const mcid = parents[pageIndex]!.length;
    parents[pageIndex]!.push(owner);
    page.pushOperators(marked(role, context.obj({ MCID: mcid, ...(lang === undefined ? {} : { Lang: PDFString.of(lang) }) })));
    draw(line(pageIndex, role === 'Figure' ? 100 : 22));
    page.pushOperators(endMarked());
    return mcid;
  };

  const build = (element: El, parent: PDFRef, inherited: number): PDFRef => {
    const ref = context.nextRef();
    const pageIndex = (element.page ?? inherited + 1) - 1;
    const page = pages[pageIndex]!;
    const kids: (PDFRef | number)[] = [];
    if (element.text !== undefined) {
      const text = element.text;
      kids.push(drawOwned(page, pageIndex, ref, element.role, (y) => page.drawText(text, { x: 72, y, size: 12, font }), element.contentLang));
      if (element.link) {
        const y = cursor[pageIndex]! + 22;
        const annotation = context.obj({
          Type: 'Annot', Subtype: 'Link', Rect: [70, y - 4, 72 + font.widthOfTextAtSize(text, 12) + 2, y + 14], Border: [0, 0, 0],
          A: { Type: 'Action', S: 'URI', URI: PDFString.of(element.link.uri) },
          ...(element.link.contents === undefined ? {} : { Contents: PDFHexString.fromText(element.link.contents) }),
          ...(element.link.tagged === false ? {} : { StructParent: pages.length + annotationParents.length }),
        });
        const annotationRef = context.register(annotation);
        const existing = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
        if (existing) existing.push(annotationRef);
        else page.node.set(PDFName.of('Annots'), context.obj([annotationRef]));
        if (element.link.tagged !== false) {
          annotationParents.push(ref);
          kids.push(context.register(context.obj({ Type: 'OBJR', Obj: annotationRef, Pg: page.ref })));
        }
      }
    }
    if (element.image) kids.push(drawOwned(page, pageIndex, ref, element.role, (y) => page.drawImage(picture, { x: 72, y: y - 80, width: 120, height: 80 })));
    for (const kid of element.kids ?? []) kids.push(build(kid, ref, pageIndex));
    const attributes = element.scope !== undefined || element.headers !== undefined
      ? { A: { O: 'Table', ...(element.scope === undefined ? {} : { Scope: element.scope }), ...(element.headers === undefined ? {} : { Headers: element.headers.map((id) => PDFString.of(id)) }) } }
      : {};
    context.assign(ref, context.obj({
      Type: 'StructElem', S: element.role, P: parent, Pg: page.ref, K: kids,
      ...(element.alt === undefined ? {} : { Alt: PDFHexString.fromText(element.alt) }),
      ...(element.actualText === undefined ? {} : { ActualText: PDFHexString.fromText(element.actualText) }),
      ...(element.lang === undefined ? {} : { Lang: PDFString.of(element.lang) }),
      ...(element.id === undefined ? {} : { ID: PDFString.of(element.id) }),
      ...attributes,
    }));
    return ref;
  };

  const rootRef = context.nextRef();
  const documentElement = build({ role: 'Document', kids: spec.elements }, rootRef, 0);
  for (const { page, text } of spec.artifacts ?? []) {
    const target = pages[page - 1]!;
    target.pushOperators(marked('Artifact', context.obj({ Type: 'Pagination' })));
    target.drawText(text, { x: 72, y: 40, size: 9, font });
    target.pushOperators(endMarked());
  }
  for (const { page, text } of spec.untagged ?? []) pages[page - 1]!.drawText(text, { x: 72, y: line(page - 1), size: 12, font });
  const nums: (number | PDFRef | PDFRef[])[] = [];
  pages.forEach((page, index) => {
    page.node.set(PDFName.of('StructParents'), context.obj(index));
    page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
    nums.push(index, parents[index]!);
  });
  annotationParents.forEach((ref, index) => nums.push(pages.length + index, ref));
  const parentTree = context.register(context.obj({ Nums: nums }));
  context.assign(rootRef, context.obj({ Type: 'StructTreeRoot', K: [documentElement], ParentTree: parentTree, ParentTreeNextKey: pages.length + annotationParents.length }));
  document.catalog.set(PDFName.of('StructTreeRoot'), rootRef);
  document.catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
  const lang = spec.lang === undefined ? 'en-CA' : spec.lang;
  if (lang !== null) document.catalog.set(PDFName.of('Lang'), PDFString.of(lang));
  const title = spec.title === undefined ? 'Wetland field guide' : spec.title;
  if (title !== null) document.setTitle(title, { showInWindowTitleBar: spec.showTitle ?? true });
  if (spec.showTitle === false) document.catalog.set(PDFName.of('ViewerPreferences'), context.obj({ DisplayDocTitle: false }));
  if (spec.field) {
    const field = document.getForm().createTextField(spec.field.name);
    field.addToPage(pages[0]!, { x: 72, y: line(0, 40), width: 200, height: 24, font });
    if (spec.field.tooltip !== undefined) field.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText(spec.field.tooltip));
  }
  return document;
}

const saved = (document: PDFDocument) => document.save({ useObjectStreams: false });
const P = (text: string, more: Partial<El> = {}): El => ({ role: 'P', text, ...more });
const INTRO = P('Wetlands filter water, store carbon and shelter birds, fish and insects through the year.');

/** A table of `rows` x 2 cells; `header` says how its first row is marked. */
function table(header: 'th' | 'scope' | 'headers' | 'none', rows = 3): El {
  const cells = (row: number): El[] => [0, 1].map((column) => {
    const text = row === 0 ? ['Species', 'Count'][column]! : column === 0 ? ['Heron', 'Kingfisher', 'Osprey'][(row - 1) % 3]! : String(row * 4);
    if (row === 0 && header === 'th') return { role: 'TH', text, scope: 'Column' };
    if (row === 0 && header === 'scope') return { role: 'TD', text, scope: 'Column' };
    if (row === 0 && header === 'headers') return { role: 'TD', text, id: `h${column}` };
    if (row > 0 && header === 'headers') return { role: 'TD', text, headers: [`h${column}`] };
    return { role: 'TD', text };
  });
  return { role: 'Table', kids: Array.from({ length: rows }, (_, row) => ({ role: 'TR', kids: cells(row) })) };
}

/** A non-embedded TrueType font named like a system font, as a PDF made without font embedding carries it. */
function unembeddedFont(document: PDFDocument): PDFRef {
  const widths = Array.from({ length: 95 }, () => 500);
  return document.context.register(document.context.obj({
    Type: 'Font', Subtype: 'TrueType', BaseFont: 'Calibri', FirstChar: 32, LastChar: 126, Widths: widths, Encoding: 'WinAnsiEncoding',
    FontDescriptor: { Type: 'FontDescriptor', FontName: 'Calibri', Flags: 32, FontBBox: [-503, -313, 1240, 1026], ItalicAngle: 0, Ascent: 750, Descent: -250, CapHeight: 632, StemV: 80 },
  }));
}

/** A one-page tagged PDF whose paragraph is drawn in the Calibri above, visible or (OCR-like) invisible. */
async function unembeddedFontPdf(invisible: boolean): Promise<Uint8Array> {
  const document = await taggedPdf({ elements: [{ role: 'H1', text: 'Field notes' }] });
  const page = document.getPage(0);
  page.node.setFontDictionary(PDFName.of('FCalibri'), unembeddedFont(document));
  const owner = document.context.nextRef();
  const root = document.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
  const documentElement = root.lookup(PDFName.of('K'), PDFArray).lookup(0, PDFDict);
  document.context.assign(owner, document.context.obj({ Type: 'StructElem', S: 'P', P: root.lookup(PDFName.of('K'), PDFArray).get(0), Pg: page.ref, K: [1] }));
  documentElement.lookup(PDFName.of('K'), PDFArray).push(owner);
  root.lookup(PDFName.of('ParentTree'), PDFDict).lookup(PDFName.of('Nums'), PDFArray).lookup(1, PDFArray).push(owner);
  page.pushOperators(
    marked('P', document.context.obj({ MCID: 1 })),
    PDFOperator.of(PDFOperatorNames.BeginText),
    PDFOperator.of(PDFOperatorNames.SetFontAndSize, [PDFName.of('FCalibri'), document.context.obj(12)]),
    PDFOperator.of(PDFOperatorNames.SetTextRenderingMode, [document.context.obj(invisible ? 3 : 0)]),
    PDFOperator.of(PDFOperatorNames.MoveText, [document.context.obj(72), document.context.obj(680)]),
    PDFOperator.of(PDFOperatorNames.ShowText, [PDFString.of('Herons wade the shallow edge of the pond at dawn.')]),
    PDFOperator.of(PDFOperatorNames.EndText),
    endMarked(),
  );
  return saved(document);
}

/** A page of Japanese text in a CID-keyed font that is not embedded: Adobe-Japan1, UniJIS-UCS2-H, no ToUnicode. */
async function cidFontPdf(): Promise<Uint8Array> {
  // A photo on the page too: textless (to pdf.js) with an image is what a scan looks like.
  const document = await taggedPdf({ lang: 'ja', title: '湿地の観察', elements: [{ role: 'Figure', image: true, alt: '池の写真' }] });
  const { context } = document;
  const page = document.getPage(0);
  const fontRef = context.register(context.obj({
    Type: 'Font', Subtype: 'Type0', BaseFont: 'KozMinPr6N-Regular', Encoding: 'UniJIS-UCS2-H',
    DescendantFonts: [context.obj({
      Type: 'Font', Subtype: 'CIDFontType0', BaseFont: 'KozMinPr6N-Regular',
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Japan1'), Supplement: 6 },
      FontDescriptor: { Type: 'FontDescriptor', FontName: 'KozMinPr6N-Regular', Flags: 4, FontBBox: [-437, -340, 1147, 1317], ItalicAngle: 0, Ascent: 880, Descent: -120, CapHeight: 742, StemV: 80 },
      DW: 1000,
    })],
  }));
  page.node.setFontDictionary(PDFName.of('FJ'), fontRef);
  const root = document.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
  const documentElement = root.lookup(PDFName.of('K'), PDFArray).lookup(0, PDFDict);
  const owner = context.register(context.obj({ Type: 'StructElem', S: 'P', P: root.lookup(PDFName.of('K'), PDFArray).get(0), Pg: page.ref, K: [1] }));
  documentElement.lookup(PDFName.of('K'), PDFArray).push(owner);
  root.lookup(PDFName.of('ParentTree'), PDFDict).lookup(PDFName.of('Nums'), PDFArray).lookup(1, PDFArray).push(owner);
  // UCS-2 codes: 湿地の鳥を観察します。(Observing wetland birds.)
  const text = '湿地の鳥を観察します。水辺の生き物を記録しましょう。';
  const hex = [...text].map((char) => char.codePointAt(0)!.toString(16).padStart(4, '0')).join('');
  page.pushOperators(
    marked('P', context.obj({ MCID: 1 })),
    PDFOperator.of(PDFOperatorNames.BeginText),
    PDFOperator.of(PDFOperatorNames.SetFontAndSize, [PDFName.of('FJ'), context.obj(14)]),
    PDFOperator.of(PDFOperatorNames.MoveText, [context.obj(72), context.obj(700)]),
    PDFOperator.of(PDFOperatorNames.ShowText, [PDFHexString.of(hex)]),
    PDFOperator.of(PDFOperatorNames.EndText),
    endMarked(),
  );
  return saved(document);
}

/** A tagged PDF whose structure tree loops: an element is its own grandchild. */
async function cyclicStructurePdf(): Promise<Uint8Array> {
  const document = await taggedPdf({ elements: [{ role: 'Sect', kids: [P('A section whose tags loop back on themselves.')] }] });
  const documentElement = document.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict).lookup(PDFName.of('K'), PDFArray).lookup(0, PDFDict);
  const section = documentElement.lookup(PDFName.of('K'), PDFArray).lookup(0, PDFDict);
  const paragraph = section.lookup(PDFName.of('K'), PDFArray).lookup(0, PDFDict);
  paragraph.lookup(PDFName.of('K'), PDFArray).push(documentElement.lookup(PDFName.of('K'), PDFArray).get(0));
  return saved(document);
}

/** A tagged PDF whose text sits under `depth` nested Div elements. */
async function deepStructurePdf(depth: number): Promise<Uint8Array> {
  let element: El = P('Text at the bottom of a very deep tag structure.');
  for (let level = 0; level < depth; level++) element = { role: 'Div', kids: [element] };
  return saved(await taggedPdf({ elements: [element] }));
}

/** A tagged PDF with `count` empty Span elements beside its one paragraph. */
async function wideStructurePdf(count: number): Promise<Uint8Array> {
  return saved(await taggedPdf({ elements: [INTRO, { role: 'Div', kids: Array.from({ length: count }, () => ({ role: 'Span' })) }] }));
}

/** A PDF whose AcroForm holds an XFA form: dynamic (NeedsRendering, dynamicRender required) or static. */
async function xfaPdf(dynamic: boolean): Promise<Uint8Array> {
  // pdf-lib drops an XFA form whenever its form API is used, so the XFA goes into the saved file, read again.
  const made = await taggedPdf({ elements: [{ role: 'H1', text: 'Field trip permission form' }, INTRO], field: { name: 'student', tooltip: 'Student name' } });
  const document = await PDFDocument.load(await saved(made), { updateMetadata: false });
  const { context } = document;
  const packet = (xml: string) => context.register(context.flateStream(xml));
  const config = `<config xmlns="http://www.xfa.org/schema/xci/3.0/"><present><pdf><version>1.7</version></pdf></present><acrobat><acrobat7><dynamicRender>${dynamic ? 'required' : 'forbidden'}</dynamicRender></acrobat7></acrobat></config>`;
  const template = '<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"><subform name="form1" layout="tb"><field name="student"><ui><textEdit/></ui></field></subform></template>';
  const form = document.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
  form.set(PDFName.of('XFA'), context.obj([
    PDFString.of('preamble'), packet('<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/">'),
    PDFString.of('config'), packet(config),
    PDFString.of('template'), packet(template),
    PDFString.of('postamble'), packet('</xdp:xdp>'),
  ]));
  if (dynamic) document.catalog.set(PDFName.of('NeedsRendering'), context.obj(true));
  return document.save({ useObjectStreams: false, updateFieldAppearances: false });
}

/** Removes every font's ToUnicode map: the codes of a CID-keyed font with an Identity ordering then map to nothing. */
async function withoutToUnicode(bytes: Buffer): Promise<Uint8Array> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && object.lookupMaybe(PDFName.of('Type'), PDFName) === PDFName.of('Font')) object.delete(PDFName.of('ToUnicode'));
  }
  return document.save({ useObjectStreams: false });
}

/** The pdfua-* files: each check's failing file and its passing look-alike. */
async function pdfuaFiles(out: (name: string, data: Uint8Array) => void, made: (folder: string, name: string) => Buffer, source: (name: string, text: string) => string): Promise<void> {
  const page = async (spec: TaggedSpec) => saved(await taggedPdf(spec));
  const h = (level: number, text: string): El => ({ role: `H${level}`, text });

  // 7.3 and 7.7: figures and formulas need Alt (or ActualText, or an enclosing element's).
  out('pdfua-figure-alt.pdf', await page({ elements: [h(1, 'Pond life'), { role: 'Figure', image: true, alt: 'A heron standing in reeds' }, { role: 'Formula', text: 'E = m c^2', alt: 'E equals m c squared' }, { role: 'Figure', actualText: 'Map', kids: [{ role: 'Figure', image: true }] }] }));
  out('pdfua-figure-no-alt.pdf', await page({ elements: [h(1, 'Pond life'), { role: 'Figure', image: true }, { role: 'Formula', text: 'E = m c^2' }] }));
  // 7.5: a table needs header cells (TH), or cells that say their headers (Scope, Headers).
  out('pdfua-table-headers.pdf', await page({ elements: [h(1, 'Bird counts'), table('th'), table('scope'), table('headers')] }));
  out('pdfua-table-no-headers.pdf', await page({ elements: [h(1, 'Bird counts'), table('none'), { role: 'Table', kids: [{ role: 'TR', kids: [{ role: 'TD', text: 'One row, no headers needed' }] }] }] }));
  // 7.4.2: headings start at H1 and skip no level.
  out('pdfua-headings-ordered.pdf', await page({ pages: 2, elements: [h(1, 'Wetlands'), h(2, 'Birds'), h(3, 'Herons'), h(2, 'Plants', ), { ...h(1, 'Appendix'), page: 2 }, { ...h(2, 'Sources'), page: 2 }] }));
  out('pdfua-headings-skip.pdf', await page({ pages: 2, elements: [h(1, 'Wetlands'), h(2, 'Birds'), { ...h(4, 'Herons'), page: 2 }] }));
  out('pdfua-headings-start-h2.pdf', await page({ elements: [h(2, 'Wetlands'), h(3, 'Birds')] }));
  // 7.1: content is tagged or marked as an artifact.
  out('pdfua-artifacts.pdf', await page({ elements: [h(1, 'Wetlands'), INTRO], artifacts: [{ page: 1, text: 'Environmental Science 101 - page 1' }] }));
  out('pdfua-untagged-content.pdf', await page({ elements: [h(1, 'Wetlands'), INTRO], untagged: [{ page: 1, text: 'This paragraph was added after tagging and has no tag.' }] }));
  // 7.18.5: a link is tagged as a Link and says where it goes.
  out('pdfua-links.pdf', await page({ elements: [h(1, 'Readings'), { role: 'Link', text: 'Weekly reading', link: { uri: 'https://course.example/library/reading.html', contents: 'Weekly reading' } }, { role: 'Link', text: 'Field notebook guide', link: { uri: 'https://course.example/library/guide.html' } }] }));
  out('pdfua-links-bare.pdf', await page({ elements: [h(1, 'Readings'), { role: 'Link', text: 'https://course.example/library/reading.html', link: { uri: 'https://course.example/library/reading.html' } }, P('Field notebook guide', { link: { uri: 'https://course.example/library/guide.html', contents: 'Field notebook guide', tagged: false } })] }));
  // 7.18.4 (TU): a form field has a name a screen reader reads.
  out('pdfua-field-named.pdf', await page({ elements: [h(1, 'Sign-up'), P('Your name:')], field: { name: 'student', tooltip: 'Your full name' } }));
  out('pdfua-field-unnamed.pdf', await page({ elements: [h(1, 'Sign-up'), P('Your name:')], field: { name: 'student' } }));
  // 7.1: the title shows in the title bar (DisplayDocTitle).
  out('pdfua-title-shown.pdf', await page({ elements: [h(1, 'Wetlands'), INTRO] }));
  out('pdfua-title-not-shown.pdf', await page({ showTitle: false, elements: [h(1, 'Wetlands'), INTRO] }));
  // 7.2: a language for every piece of text, from the catalog or from each element.
  out('pdfua-language-per-element.pdf', await page({ lang: null, elements: [{ ...h(1, 'Wetlands'), lang: 'en-CA' }, { role: 'Sect', lang: 'en-CA', kids: [INTRO] }, P('Les milieux humides filtrent l\'eau.', { lang: 'fr-CA' })] }));
  out('pdfua-language-marked-content.pdf', await page({ lang: null, elements: [{ ...h(1, 'Wetlands'), contentLang: 'en-CA' }, { ...INTRO, contentLang: 'en-CA' }] }));
  out('pdfua-language-partial.pdf', await page({ lang: null, elements: [{ ...h(1, 'Wetlands'), lang: 'en-CA' }, INTRO] }));
  out('pdfua-language-invalid.pdf', await page({ lang: 'english', elements: [h(1, 'Wetlands'), P('Les milieux humides filtrent l\'eau.', { lang: 'fr_CA' })] }));
  // 7.15: no dynamic XFA; a static XFA form beside an AcroForm is allowed.
  out('pdfua-xfa-static.pdf', await xfaPdf(false));
  out('pdfua-xfa-dynamic.pdf', await xfaPdf(true));
  // 7.21.4: fonts are embedded, except those only drawn invisibly (text recognition over a scan).
  out('pdfua-font-invisible.pdf', await unembeddedFontPdf(true));
  out('pdfua-font-not-embedded.pdf', await unembeddedFontPdf(false));
  // A CID-keyed Japanese font that is not embedded, in the Adobe-Japan1 collection: its text is text.
  out('pdfua-cid-japan1.pdf', await cidFontPdf());
  // A page that is nearly empty (a section number) and has no picture is not a scan.
  out('pdfua-near-empty.pdf', await page({ pages: 2, elements: [h(1, 'Wetlands'), INTRO, { ...P('2'), page: 2 }] }));
  // Hostile structure trees: a loop, absurd depth, and more elements than the reader walks.
  out('pdfua-structure-cycle.pdf', await cyclicStructurePdf());
  out('pdfua-structure-deep.pdf', await deepStructurePdf(150));
  out('pdfua-structure-wide.pdf', await wideStructurePdf(3000));

  // LibreOffice: Japanese text in IPA Gothic, which it embeds as a CID-keyed font (Identity-H,
  // Adobe-Identity) with a ToUnicode map; without the map, its codes map to nothing (7.21.7).
  const japanese: WriterSource = { title: '湿地の観察', body: [heading('湿地の観察', 1), para('湿地の鳥を観察します。水辺の生き物を記録しましょう。')].join('') };
  soffice(`pdf:writer_pdf_Export:${tagged}`, [source('japanese.fodt', fodt(japanese).replace('fo:language="en" fo:country="CA"', 'fo:language="ja" fo:country="JP" fo:font-family="IPAGothic" style:font-family-asian="IPAGothic" style:language-asian="ja" style:country-asian="JP"'))], join(work, 'japanese'));
  out('pdfua-cid-embedded.pdf', made('japanese', 'japanese.pdf'));
  out('pdfua-text-unmapped.pdf', await withoutToUnicode(made('japanese', 'japanese.pdf')));
  // 7.16: encryption that lets the text be read by assistive technology, and one that does not.
  const noScreenReaders = '{"UseTaggedPDF":{"type":"boolean","value":"true"},"RestrictPermissions":{"type":"boolean","value":"true"},"PermissionPassword":{"type":"string","value":"owner-only"},"EnableTextAccessForAccessibilityTools":{"type":"boolean","value":"false"},"EnableCopyingOfContent":{"type":"boolean","value":"false"}}';
  soffice(`pdf:writer_pdf_Export:${noScreenReaders}`, [source('syllabus-locked.fodt', withPageBreakStyle(fodt(SYLLABUS)))], join(work, 'locked'));
  out('pdfua-encryption-blocks-at.pdf', made('locked', 'syllabus-locked.pdf'));
}

// ---- Word and PowerPoint files of the depth checks ---------------------------------------------

const cell = (text: string) => `<table:table-cell office:value-type="string"><text:p>${esc(text)}</text:p></table:table-cell>`;
const row = (cells: string[]) => `<table:table-row>${cells.map(cell).join('')}</table:table-row>`;
/** A Writer table of bird counts; `headerRow` makes its first row a repeated header row (Word's w:tblHeader). */
function odfTable(name: string, headerRow: boolean, rows = 3): string {
  const head = row(['Species', 'Count']);
  const body = Array.from({ length: rows - 1 }, (_, index) => row([['Heron', 'Kingfisher', 'Osprey'][index % 3]!, String((index + 1) * 4)])).join('');
  return `<table:table table:name="${name}"><table:table-column table:number-columns-repeated="2"/>${headerRow ? `<table:table-header-rows>${head}</table:table-header-rows>` : head}${body}</table:table>`;
}

const TABLES_HEADER_ROW: WriterSource = {
  title: 'Bird counts',
  body: [heading('Bird counts'), para('Counts from the spring survey.'), odfTable('Counts', true), para('A one-row table used for layout needs no header row.'), `<table:table table:name="Layout"><table:table-column table:number-columns-repeated="2"/>${row(['Name:', 'Date:'])}</table:table>`].join(''),
};
const TABLES_NO_HEADER_ROW: WriterSource = { title: 'Bird counts', body: [heading('Bird counts'), para('Counts from the spring survey.'), odfTable('Counts', false)].join('') };
const HEADINGS_ORDERED: WriterSource = { title: 'Wetlands', body: [heading('Wetlands', 1), para('Intro.'), heading('Birds', 2), heading('Herons', 3), heading('Plants', 2), heading('Sources', 1)].join('') };
const HEADINGS_SKIP: WriterSource = { title: 'Wetlands', body: [heading('Wetlands', 1), para('Intro.'), heading('Herons', 3), para('Herons wade.'), heading('Plants', 2)].join('') };

const CHART_FRAME = (id: number, name: string, alt: string | null, kind: 'chart' | 'diagram', y: number) => {
  const data = kind === 'chart'
    ? '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData>'
    : '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIdDiagramData" r:lo="rIdDiagramData" r:qs="rIdDiagramData" r:cs="rIdDiagramData"/></a:graphicData>';
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="${esc(name)}"${alt === null ? '' : ` descr="${esc(alt)}"`}/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="838200" y="${y}"/><a:ext cx="6000000" cy="3000000"/></p:xfrm><a:graphic>${data}</a:graphic></p:graphicFrame>`;
};

/** Word tables and headings (LibreOffice), and PowerPoint reading order, charts and SmartArt (PowerPoint's XML). */
async function officeDepthFiles(out: (name: string, data: Uint8Array) => void, made: (folder: string, name: string) => Buffer, source: (name: string, text: string) => string): Promise<void> {
  const sources = [['tables-header-row.fodt', TABLES_HEADER_ROW], ['tables-no-header-row.fodt', TABLES_NO_HEADER_ROW], ['headings-ordered.fodt', HEADINGS_ORDERED], ['headings-skip.fodt', HEADINGS_SKIP]] as const;
  soffice('docx:MS Word 2007 XML', sources.map(([name, doc]) => source(name, fodt(doc))), join(work, 'depth-docx'));
  for (const [name] of sources) out(name.replace('.fodt', '.docx'), made('depth-docx', name.replace('.fodt', '.docx')));
  soffice('pptx', [source('four.fodp', fodp('Week 3: wetlands', 4))], join(work, 'depth-pptx'));
  const base = made('depth-pptx', 'four.pptx');
  // Slide 1: the title first. 2: a text box before the title. 3: only a decorative picture before it. 4: a title, then a chart and a SmartArt graphic with alternative text.
  out('reading-order.pptx', await presentation(base, [
    { shapes: [{ kind: 'title', runs: ['Wetlands'] }, { kind: 'body', runs: ['Where land meets water'] }] },
    { shapes: [{ kind: 'textbox', text: 'Remember: field trip on Friday', big: false }, { kind: 'title', runs: ['Birds'] }, { kind: 'body', runs: ['Herons and kingfishers'] }] },
    { shapes: [{ kind: 'picture', name: 'Picture 2', alt: null, decorative: true }, { kind: 'title', runs: ['Plants'] }, { kind: 'body', runs: ['Reeds and sedges'] }] },
    { shapes: [{ kind: 'title', runs: ['Counts'] }, { kind: 'chart', name: 'Chart 3', alt: 'Bar chart: 4 herons, 8 kingfishers' }, { kind: 'diagram', name: 'Diagram 4', alt: 'Cycle: rain, runoff, wetland, river' }] },
  ]));
  out('charts-no-alt.pptx', await presentation(base, [
    { shapes: [{ kind: 'title', runs: ['Wetlands'] }] },
    { shapes: [{ kind: 'title', runs: ['Counts'] }, { kind: 'chart', name: 'Chart 3', alt: null }, { kind: 'diagram', name: 'Diagram 4', alt: null }] },
    { shapes: [{ kind: 'title', runs: ['Sources'] }] },
    { shapes: [{ kind: 'title', runs: ['Questions'] }] },
  ]));
}

// ---- make them --------------------------------------------------------------------------------

const tagged = '{"UseTaggedPDF":{"type":"boolean","value":"true"}}';
const untagged = '{"UseTaggedPDF":{"type":"boolean","value":"false"}}';
const encrypted = '{"UseTaggedPDF":{"type":"boolean","value":"true"},"EncryptFile":{"type":"boolean","value":"true"},"DocumentOpenPassword":{"type":"string","value":"open-sesame"}}';
const restricted = '{"UseTaggedPDF":{"type":"boolean","value":"true"},"RestrictPermissions":{"type":"boolean","value":"true"},"PermissionPassword":{"type":"string","value":"owner-only"},"Changes":{"type":"long","value":"0"}}';

async function main(): Promise<void> {
  if (spawnSync('soffice', ['--version'], { encoding: 'utf8' }).status !== 0) {
    console.error('make-document-fixtures: LibreOffice (soffice) is needed, e.g. apt-get install libreoffice-writer-nogui libreoffice-impress-nogui');
    process.exitCode = 2;
    return;
  }
  mkdirSync(FIXTURES, { recursive: true });
  mkdirSync(DEMO, { recursive: true });
  const source = (name: string, text: string) => {
    const path = join(work, name);
    writeFileSync(path, text);
    return path;
  };
  const out = (name: string, data: Uint8Array) => writeFileSync(join(FIXTURES, name), data);
  const made = (folder: string, name: string) => readFileSync(join(work, folder, name));

  await pdfuaFiles(out, made, source);
  await officeDepthFiles(out, made, source);
  if (process.argv[2] === 'pdfua') {
    console.log(`Documents of the depth checks written to ${FIXTURES}.`);
    return;
  }

  // PDFs from the same syllabus, exported four ways.
  const syllabus = source('syllabus.fodt', withPageBreakStyle(fodt(SYLLABUS)));
  soffice(`pdf:writer_pdf_Export:${tagged}`, [syllabus], join(work, 'tagged'));
  soffice(`pdf:writer_pdf_Export:${untagged}`, [syllabus], join(work, 'untagged'));
  soffice(`pdf:writer_pdf_Export:${encrypted}`, [syllabus], join(work, 'encrypted'));
  soffice(`pdf:writer_pdf_Export:${restricted}`, [syllabus], join(work, 'restricted'));
  out('tagged.pdf', await relativePdf(made('tagged', 'syllabus.pdf')));
  out('untagged.pdf', await relativePdf(made('untagged', 'syllabus.pdf')));
  out('encrypted.pdf', made('encrypted', 'syllabus.pdf'));
  out('restricted.pdf', made('restricted', 'syllabus.pdf'));
  out('bare.pdf', await barePdf());
  out('scanned.pdf', await scanPdf(false));
  out('ocr.pdf', await scanPdf(true));
  out('malformed.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'), Buffer.alloc(300, 0x5a), Buffer.from('\ntrailer\n<< /Root 9 0 R >>\n%%EOF\n')]));

  // Word files.
  const writerSources = [['clean.fodt', CLEAN_DOCX], ['short.fodt', SHORT_DOCX], ['long.fodt', LONG_DOCX]] as const;
  soffice('docx:MS Word 2007 XML', writerSources.map(([name, doc]) => source(name, fodt(doc))), join(work, 'docx'));
  out('clean.docx', await editPackage(made('docx', 'clean.docx'), (name, xml) => (name === 'word/document.xml' ? relativeLinks(markDecorative(xml, 'Divider')) : relativeLinks(xml))));
  out('short.docx', made('docx', 'short.docx'));
  out('long.docx', await editPackage(made('docx', 'long.docx'), (_name, xml) => relativeLinks(xml)));
  out('no-language.docx', await editPackage(made('docx', 'short.docx'), withoutLanguage));
  // A zip bomb: a 100 MB body part that packs into about 100 kB.
  out('zip-bomb.docx', zip([
    { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>') },
    { name: 'word/document.xml', data: Buffer.alloc(100 * 1024 * 1024, 0x20) },
  ]));
  // The same bomb with a part that claims to be 2 kB: it is stopped once it unpacks past its claim.
  out('lying-zip-bomb.pptx', zip([
    { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>') },
    { name: 'ppt/presentation.xml', data: Buffer.alloc(100 * 1024 * 1024, 0x20), declared: 2048 },
  ]));
  out('not-a-zip.docx', Buffer.from('This is a plain text file saved with a .docx extension.\n'));

  // PowerPoint files: LibreOffice makes the package, the slides are PowerPoint's shapes.
  soffice('pptx', [source('three.fodp', fodp('Week 1: ecosystems', 3)), source('untitled-deck.fodp', fodp(null, 3))], join(work, 'pptx'));
  out('clean.pptx', await presentation(made('pptx', 'three.pptx'), [
    { shapes: [{ kind: 'title', runs: ['Week 1: ecosystems'] }, { kind: 'body', runs: ['Read ', { text: 'the weekly reading', linkId: 'rIdLink1' }, ' first.'] }], links: { rIdLink1: '/library/reading.html' } },
    { shapes: [{ kind: 'title', runs: ['Food webs'] }, { kind: 'picture', name: 'Picture 3', alt: 'A food web linking algae, insects, fish and herons' }] },
    { shapes: [{ kind: 'title', runs: ['Questions'] }, { kind: 'picture', name: 'Picture 4', alt: null, decorative: true }] },
  ]));
  out('untitled.pptx', await presentation(made('pptx', 'untitled-deck.pptx'), [
    { shapes: [{ kind: 'title', runs: ['Week 2: water'] }, { kind: 'body', runs: ['The water cycle'] }] },
    { shapes: [{ kind: 'body', runs: ['Before the lab, read ', { text: 'the sampling sheet', linkId: 'rIdLink1' }] }], links: { rIdLink1: '/library/missing.html' } },
    { shapes: [{ kind: 'textbox', text: 'Looks like a title', big: true }, { kind: 'picture', name: 'Picture 2', alt: null }, { kind: 'title', runs: [] }] },
  ]));

  // The demo course's documents: a clean syllabus and three with defects to find.
  copyFileSync(join(FIXTURES, 'tagged.pdf'), join(DEMO, 'syllabus.pdf'));
  copyFileSync(join(FIXTURES, 'bare.pdf'), join(DEMO, 'rubric.pdf'));
  copyFileSync(join(FIXTURES, 'long.docx'), join(DEMO, 'lab-handout.docx'));
  copyFileSync(join(FIXTURES, 'untitled.pptx'), join(DEMO, 'week2-slides.pptx'));
  console.log(`Documents written to ${FIXTURES} and ${DEMO}.`);
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
