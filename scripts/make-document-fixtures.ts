// Makes the test documents (test/fixtures/documents/) and the demo course's documents
// (api/local/demo-course/documents/) with real tools, so the readers meet what editors really write:
//   node scripts/make-document-fixtures.ts
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
// Links inside the documents are site-relative (/library/...), so they resolve against wherever the
// document is served: the test site and the demo course answer /library/reading.html and not
// /library/missing.html.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';
import yauzl from 'yauzl';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFString, StandardFonts, setTextRenderingMode, TextRenderingMode } from 'pdf-lib';

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

/** A zip of the given parts (deflated), as Office writes them; `declared` overrides a part's stated size. */
function zip(parts: { name: string; data: Buffer; declared?: number }[]): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const packed = deflateRawSync(part.data);
    const crc = crc32(part.data);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(0x0800, 6);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(part.declared ?? part.data.length, 22);
    head.writeUInt16LE(name.length, 26);
    local.push(head, name, packed);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(part.declared ?? part.data.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += head.length + name.length + packed.length;
  }
  const centralSize = central.reduce((sum, buffer) => sum + buffer.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, ...central, end]);
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

const ODF_NAMESPACES = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"';

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
  | { kind: 'picture'; name: string; alt: string | null; decorative?: boolean };

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

/** A LibreOffice PowerPoint package whose slides are replaced by the given ones. */
async function presentation(base: Buffer, slides: SlideSource[]): Promise<Buffer> {
  const picture = png(160, 100);
  const media = [{ name: 'ppt/media/ctpo-picture.png', data: picture }];
  return editPackage(base, (name, xml) => {
    const slide = /^ppt\/slides\/slide(\d+)\.xml$/.exec(name);
    if (slide) return slideXml(slides[Number(slide[1]) - 1]!.shapes);
    const rels = /^ppt\/slides\/_rels\/slide(\d+)\.xml\.rels$/.exec(name);
    if (rels) {
      const source = slides[Number(rels[1]) - 1]!;
      const layout = /<Relationship [^>]*slideLayout[^>]*\/>/.exec(xml)?.[0] ?? '';
      const links = Object.entries(source.links ?? {}).map(([id, path]) => `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${esc(path)}" TargetMode="External"/>`);
      return `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${layout}<Relationship Id="rIdPicture" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/ctpo-picture.png"/>${links.join('')}</Relationships>`;
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
