// Hostile documents end with a bounded, counted result: a deck that lists one empty slide 20,000
// times is read to the slide limit and its findings capped per check (the rest counted), and a Word
// file of 300,000 nested elements is read down to the depth limit instead of taking the reader's
// whole time limit (the parser went quadratic in depth). Both are read by the real document worker:
// before the limits, the deep file came back as a timeout, not as facts.
import { afterAll, describe, expect, it } from 'vitest';
import type { ItemPlace } from '../../../api/brightspace/places.ts';
import { checkDocument } from '../../../api/checks/documents.ts';
import { FindingCaps, MAX_FINDINGS_PER_CHECK, MAX_FINDINGS_PER_ITEM } from '../../../api/checks/finding-caps.ts';
import type { Finding } from '../../../api/checks/finding.ts';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentFacts } from '../../../api/extract/document-facts.ts';
import { DocumentRunner } from '../../../api/extract/document-runner.ts';
import { formatMessage, msg } from '../../../api/i18n/messages.ts';
import { zip as zipParts } from '../../../scripts/zip-parts.ts';

const place: ItemPlace = { moduleId: 1, moduleTitle: 'Week 1', topicId: 11, topicTitle: 'Slides', itemType: 'topic', itemId: 11, itemTitle: 'Slides' };
const runner = new DocumentRunner();
afterAll(() => runner.close());

/** An Office package of the given parts. */
function zip(parts: Record<string, string>): Buffer {
  return zipParts(Object.entries(parts).map(([name, text]) => ({ name, data: Buffer.from(text) })));
}

const SLIDES = 20_000;
const slideDeck = zip({
  'ppt/presentation.xml': `<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst>${Array.from({ length: SLIDES }, (_, index) => `<p:sldId id="${256 + index}" r:id="rId1"/>`).join('')}</p:sldIdLst></p:presentation>`,
  'ppt/_rels/presentation.xml.rels': '<Relationships><Relationship Id="rId1" Type="slide" Target="slides/slide1.xml"/></Relationships>',
  'ppt/slides/slide1.xml': '<p:sld xmlns:p="p"><p:cSld><p:spTree/></p:cSld></p:sld>',
});

const DEPTH = 300_000;
const deepWord = zip({ 'word/document.xml': `<w:document xmlns:w="w"><w:body>${'<w:p>'.repeat(DEPTH)}x${'</w:p>'.repeat(DEPTH)}</w:body></w:document>` });

async function factsOf(type: 'pptx' | 'docx', bytes: Buffer): Promise<DocumentFacts> {
  const result = await runner.read(type, bytes);
  if (!result.ok) throw new Error(`not read: ${JSON.stringify(result.failure)}`);
  return result.facts;
}

function capped(findings: Finding[]): Finding[] {
  const caps = new FindingCaps();
  for (const found of findings) caps.add(found);
  return [...caps.kept, ...caps.overflow()];
}

const count = (findings: Finding[], check: string) => findings.filter((found) => found.check === check).length;

describe('bounded work on hostile documents', () => {
  it('reads a deck that lists one empty slide 20,000 times to the slide limit, and counts the findings past the cap', async () => {
    expect(slideDeck.length).toBeLessThan(60_000);
    const facts = await factsOf('pptx', slideDeck);
    expect(facts).toMatchObject({ type: 'pptx', slides: SLIDES, shortfalls: [{ limit: 'slides', max: DEFAULT_DOCUMENT_LIMITS.maxPages, total: SLIDES }] });
    if (facts.type !== 'pptx') throw new Error('not a deck');
    expect(facts.untitledSlides).toHaveLength(DEFAULT_DOCUMENT_LIMITS.maxPages);

    const { findings } = checkDocument(facts, place, 'https://school.example/content/enforced/7300-BIO/deck.pptx', 7300);
    const report = capped(findings);
    expect(count(report, 'doc.slide-no-title')).toBe(MAX_FINDINGS_PER_CHECK);
    const more = report.filter((found) => found.check === 'limit.findings');
    expect(more).toHaveLength(1);
    expect(more[0]!.count).toBe(DEFAULT_DOCUMENT_LIMITS.maxPages - MAX_FINDINGS_PER_CHECK);
    expect(formatMessage(more[0]!.message)).toBe(
      `…and ${(DEFAULT_DOCUMENT_LIMITS.maxPages - MAX_FINDINGS_PER_CHECK).toLocaleString('en-US')} more findings of “Slide without a title” here, not listed: a report lists at most ${MAX_FINDINGS_PER_CHECK} of one kind for one page or file.`,
    );
    const limit = report.find((found) => found.check === 'doc.limit-reached');
    expect(limit && formatMessage(limit.message)).toBe('This presentation lists 20,000 slides; CTPO read the first 500, so the rest was not checked.');
  });

  it('reads a Word file of 300,000 nested elements down to the depth limit, and says so', async () => {
    expect(deepWord.length).toBeLessThan(10_000);
    const facts = await factsOf('docx', deepWord);
    expect(facts).toMatchObject({ type: 'docx', shortfalls: [{ limit: 'xml-depth', max: DEFAULT_DOCUMENT_LIMITS.maxXmlDepth }] });
    const { findings } = checkDocument(facts, place, 'https://school.example/content/enforced/7300-BIO/deep.docx', 7300);
    const limit = findings.find((found) => found.check === 'doc.limit-reached');
    expect(limit && formatMessage(limit.message)).toBe(
      `This file’s XML is nested more than ${DEFAULT_DOCUMENT_LIMITS.maxXmlDepth} levels deep, deeper than Word or PowerPoint ever write; CTPO read it down to that depth, so the rest was not checked.`,
    );
  });

  it('keeps at most the cap of findings per item across checks, and one count per check past it', () => {
    const many = Array.from({ length: MAX_FINDINGS_PER_ITEM + 30 }, (_, index): Finding => ({
      ...place, check: `a11y.rule-${index % 20}`, severity: 'warning', url: null, message: msg('finding.content.empty'),
    }));
    const report = capped(many);
    const kept = report.filter((found) => found.check !== 'limit.findings');
    expect(kept).toHaveLength(MAX_FINDINGS_PER_ITEM);
    const counted = report.filter((found) => found.check === 'limit.findings').reduce((sum, found) => sum + (found.count ?? 0), 0);
    expect(kept.length + counted).toBe(many.length);
    // Another item has a budget of its own.
    const other = capped([...many, { ...many[0]!, topicId: 12, itemId: 12 }]);
    expect(other.filter((found) => found.topicId === 12)).toHaveLength(1);
  });
});
