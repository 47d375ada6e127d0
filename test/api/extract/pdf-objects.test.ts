// The walks of a PDF's object graph (pdf-objects.ts) on hostile files made here with pdf-lib: a page
// tree that loops, a form field whose parents loop, a structure tree deeper than the depth limit and
// one larger than the count limit. Each walk ends, says what stopped it, and keeps what it found.
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, type PDFRef } from 'pdf-lib';
import { MAX_STRUCTURE_DEPTH, readPdfObjects } from '../../../api/extract/pdf-objects.ts';

async function tagged(build: (document: PDFDocument, root: PDFDict, page: PDFRef) => PDFRef[]): Promise<Uint8Array> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const page = document.addPage();
  const { context } = document;
  const rootRef = context.nextRef();
  const root = context.obj({ Type: 'StructTreeRoot' });
  context.assign(rootRef, root);
  root.set(PDFName.of('K'), context.obj(build(document, root, page.ref)));
  document.catalog.set(PDFName.of('StructTreeRoot'), rootRef);
  return document.save({ useObjectStreams: false });
}

/** A chain of `depth` elements, each the only kid of the one above, ending in a Figure without Alt. */
function chain(document: PDFDocument, page: PDFRef, depth: number): PDFRef {
  let kid = document.context.register(document.context.obj({ Type: 'StructElem', S: 'Figure', Pg: page, K: [] }));
  for (let level = 0; level < depth; level++) kid = document.context.register(document.context.obj({ Type: 'StructElem', S: 'Div', Pg: page, K: [kid] }));
  return kid;
}

describe('the walk of the tag structure', () => {
  it('reads a tree within the limits whole', async () => {
    const objects = await readPdfObjects(await tagged((document, _root, page) => [chain(document, page, 10)]), 500, 1_000);
    expect(objects).toMatchObject({ structureTree: true, figures: [{ role: 'Figure', described: false, page: 1 }] });
    expect([...objects!.shortfalls]).toEqual([]);
  });

  it('stops past the depth limit, keeping what it found above it', async () => {
    const objects = await readPdfObjects(await tagged((document, _root, page) => [chain(document, page, MAX_STRUCTURE_DEPTH + 50), chain(document, page, 3)]), 500, 1_000_000);
    expect([...objects!.shortfalls]).toEqual(['structure-depth']);
    expect(objects!.figures).toHaveLength(1);
  });

  it('stops at the count limit', async () => {
    const bytes = await tagged((document, _root, page) => Array.from({ length: 400 }, () => chain(document, page, 1)));
    expect([...(await readPdfObjects(bytes, 500, 100))!.shortfalls]).toEqual(['structure-size']);
    expect((await readPdfObjects(bytes, 500, 10_000))!.figures).toHaveLength(400);
  });

  it('goes round a loop once', async () => {
    const objects = await readPdfObjects(await tagged((document, _root, page) => {
      const loop = chain(document, page, 2);
      const top = document.context.lookup(loop, PDFDict);
      // The Figure at the bottom names the top of its own chain as its kid.
      let bottom = top;
      for (let level = 0; level < 2; level++) bottom = bottom.lookup(PDFName.of('K'), PDFArray).lookup(0, PDFDict);
      bottom.lookup(PDFName.of('K'), PDFArray).push(loop);
      return [loop];
    }), 500, 1_000);
    expect([...objects!.shortfalls]).toEqual(['structure-cycle']);
    expect(objects!.figures).toHaveLength(1);
  });
});

describe('the walks of pages, fields and fonts', () => {
  it('reads a mislabelled font (a composite font that is its own descendant, without a descriptor) as far as it goes', async () => {
    const document = await PDFDocument.create({ updateMetadata: false });
    const page = document.addPage();
    const fontRef = document.context.nextRef();
    document.context.assign(fontRef, document.context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'ABCDEF+Broken', Encoding: 'Identity-H', DescendantFonts: [fontRef] }));
    page.node.setFontDictionary(PDFName.of('F1'), fontRef);
    const objects = await readPdfObjects(await document.save({ useObjectStreams: false }), 500, 1_000);
    expect([...objects!.fonts.values()]).toEqual([{ name: 'Broken', page: 1, embedded: false, standard: false, unicode: false, composite: true }]);
  });

  it('goes round a page tree that names itself once', async () => {
    const document = await PDFDocument.create({ updateMetadata: false });
    document.addPage();
    const pages = document.catalog.get(PDFName.of('Pages')) as PDFRef;
    document.context.lookup(pages, PDFDict).lookup(PDFName.of('Kids'), PDFArray).push(pages);
    const objects = await readPdfObjects(await document.save({ useObjectStreams: false }), 500, 1_000);
    expect(objects!.pageKeys).toHaveLength(1);
    expect([...objects!.shortfalls]).toEqual(['structure-cycle']);
  });

  it('ends the climb of a field whose parents loop, and finds a tooltip on a parent', async () => {
    const document = await PDFDocument.create({ updateMetadata: false });
    const form = document.getForm();
    const named = form.createTextField('named');
    named.addToPage(document.addPage());
    named.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText('Your name'));
    const looping = form.createTextField('looping');
    looping.addToPage(document.getPage(0));
    const widget = looping.acroField.getWidgets()[0]!.dict;
    looping.acroField.dict.set(PDFName.of('Parent'), document.context.getObjectRef(widget)!);
    const objects = await readPdfObjects(await document.save({ useObjectStreams: false, updateFieldAppearances: false }), 500, 1_000);
    expect(objects!.fieldTooltips.size).toBe(1);
  });
});
