// The judges of the page checks, on facts as the browser's probe sends them: each rule's edges
// (the real browser's cases are in test/api/a11y/page-checks.test.ts).
import { describe, expect, it } from 'vitest';
import type { LinkFact, PageFacts } from '../../../api/a11y/page-checks/page-facts.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { CHECKS } from '../../../api/checks/catalogue.ts';
import { ALT_MAX_CHARS, startsImageOf } from '../../../api/checks/image-text.ts';
import { otherLanguageOf, primaryOf, primaryTagOf } from '../../../api/checks/language-of-parts.ts';
import { goesNowhere } from '../../../api/checks/link-purpose.ts';
import { pageCheckFindings } from '../../../api/checks/page-checks.ts';
import { PAGE_CHECK_REFERENCES } from '../../../api/checks/page-findings.ts';
import { isAllCapitals } from '../../../api/checks/page-structure.ts';
import { english } from '../../../api/i18n/en/catalogue.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';

const PLACE = topicPlace({ ModuleId: 1, Title: 'M' }, { TopicId: 2, Title: 'T' });
const URL_ = 'https://school.example.com/content/enforced/5-A/page.html';
const element = { html: '<x>', selector: 'x' };

const facts = (overrides: Partial<PageFacts>): PageFacts => ({
  pageLang: 'en', links: [], images: [], texts: [], blocks: [], underlined: [], blinking: [], tables: [], refresh: [], keyboard: null, ...overrides,
});
const link = (name: string, href: string, extra: Partial<LinkFact> = {}): LinkFact => ({
  ...element, name, rawHref: href, href: href.startsWith('http') ? href : new URL(href, URL_).href, target: '', description: '', imageOnly: false, hasText: true, role: '',
  followsLink: false, scripted: false, ...extra,
});
const checksOf = (overrides: Partial<PageFacts>, whole = true) => pageCheckFindings(facts(overrides), whole, PLACE, URL_).map((finding) => finding.check);

describe('the catalogue of the page checks', () => {
  it('gives every check a severity, a title, a fix and a WCAG reference', () => {
    for (const check of Object.keys(PAGE_CHECK_REFERENCES)) {
      expect(CHECKS).toHaveProperty([check]);
      expect(english).toHaveProperty([`check.${check}`]);
      expect(english).toHaveProperty([`fix.${check}`]);
      expect(PAGE_CHECK_REFERENCES[check as keyof typeof PAGE_CHECK_REFERENCES].url).toMatch(/^https:\/\/www\.w3\.org\/WAI\/WCAG22\//);
    }
  });

  it('finds nothing without facts (no browser, or a page whose facts could not be read)', () => {
    expect(pageCheckFindings(null, true, PLACE, URL_)).toEqual([]);
    expect(pageCheckFindings(undefined, true, PLACE, URL_)).toEqual([]);
  });
});

describe('link purpose', () => {
  it('one finding for every link text used for different places, however it is spaced or closed', () => {
    const [found] = pageCheckFindings(facts({ links: [link('Notes', '/w1.pdf'), link(' notes. ', '/w2.pdf'), link('Quiz', '/q1'), link('Quiz', '/q2'), link('Home', '/h/'), link('Home', '/h')] }), true, PLACE, URL_);
    expect(found).toMatchObject({ check: 'a11y.link-same-text', count: 2, linkText: 'Notes', severity: 'warning' });
    expect(formatMessage(found!.message)).toBe('2 link texts are used for different places (e.g. "Notes", for 2 places): a student who lists the links cannot tell them apart (WCAG 2.4.4).');
  });

  it('leaves alone links without a name (axe names those) and links that go nowhere', () => {
    expect(checksOf({ links: [link('', '/a'), link('', '/b'), link('Show', '#'), link('Show', '/s')] })).toEqual(['a11y.link-nowhere']);
  });

  it.each(['#', ' # ', 'javascript:void(0)', 'JavaScript:show()', 'java\tscript:x()'])('%j goes nowhere', (href) => {
    expect(goesNowhere({ rawHref: href })).toBe(true);
  });

  it.each(['#top', '', '/page#', 'https://example.com/javascript:'])('%j goes somewhere', (href) => {
    expect(goesNowhere({ rawHref: href })).toBe(false);
  });

  it('leaves a declared button with href="#" to axe and the keyboard walk', () => {
    expect(checksOf({ links: [link('Menu', '#', { role: 'button' })] })).toEqual([]);
  });

  it('a new window is announced in the name or the description, in the page\'s languages', () => {
    const blank = (name: string, description = '') => link(name, 'https://lib.example.edu/', { target: '_blank', description });
    expect(checksOf({ links: [blank('Library')] })).toEqual(['a11y.link-new-window']);
    expect(checksOf({ links: [link('Library', 'https://lib.example.edu/', { target: '_self' })] })).toEqual([]);
    for (const announced of [blank('Library (opens in a new window)'), blank('Library', 'New tab'), blank('Bibliothèque (nouvelle fenêtre)'), blank('Biblioteca (se abre en una nueva ventana)')]) {
      expect(checksOf({ links: [announced] })).toEqual([]);
    }
  });

  it('an image link and a text link side by side to the same place, in either order', () => {
    const image = (href: string, followsLink = false) => link('Manual', href, { imageOnly: true, hasText: false, followsLink });
    expect(checksOf({ links: [image('/m.pdf'), link('Manual', '/m.pdf', { followsLink: true })] })).toEqual(['a11y.link-adjacent-duplicate']);
    expect(checksOf({ links: [link('Manual', '/m.pdf'), image('/m.pdf', true)] })).toEqual(['a11y.link-adjacent-duplicate']);
    // Apart (text between them), or two text links: no finding.
    expect(checksOf({ links: [image('/m.pdf'), link('Manual', '/m.pdf')] })).toEqual([]);
    expect(checksOf({ links: [link('Manual', '/m.pdf'), link('Manual', '/m.pdf', { followsLink: true })] })).toEqual([]);
  });
});

describe('alt text', () => {
  it.each(['Image of a cell', 'picture showing the lab', 'Photo of the river', 'Screenshot of the gradebook', 'Image: the water cycle', 'Image de la cellule', 'Imagen de la célula', 'Bild von der Zelle'])('%j starts by naming an image', (alt) => {
    expect(startsImageOf(alt)).toBe(true);
  });

  it.each(['Imagery from the Hubble telescope', 'A photographer at work', 'Icons of the 1960s', 'The picture shows a cell'])('%j does not', (alt) => {
    expect(startsImageOf(alt)).toBe(false);
  });

  it(`flags alt text longer than ${ALT_MAX_CHARS} characters`, () => {
    const image = (alt: string) => ({ ...element, alt, src: 'a.png' });
    expect(checksOf({ images: [image('x'.repeat(ALT_MAX_CHARS))] })).toEqual([]);
    expect(checksOf({ images: [image('x'.repeat(ALT_MAX_CHARS + 1))] })).toEqual(['a11y.alt-too-long']);
  });
});

describe('language of parts', () => {
  const FRENCH = 'Lisez les chapitres trois et quatre avant le prochain cours magistral, puis répondez au questionnaire.';
  const ENGLISH = 'This course looks at how living things and their surroundings shape each other, from a single pond to the whole planet.';

  it('maps franc\'s ISO 639-3 codes to BCP 47 primary tags, macrolanguages included', () => {
    expect([primaryTagOf('eng'), primaryTagOf('fra'), primaryTagOf('cmn'), primaryTagOf('arb'), primaryTagOf('nob'), primaryTagOf('haw')]).toEqual(['en', 'fr', 'zh', 'ar', 'no', 'haw']);
    expect([primaryOf('en-GB'), primaryOf('fr_CA'), primaryOf('nb'), primaryOf(' ES-419 ')]).toEqual(['en', 'fr', 'no', 'es']);
  });

  it('tells French marked as English, and English marked as French, but not English as English (en-GB) or French marked fr-CA', () => {
    expect(otherLanguageOf(FRENCH, 'en')).toBe('fr');
    expect(otherLanguageOf(FRENCH, 'de')).toBe('fr');
    expect(otherLanguageOf(ENGLISH, 'en-GB')).toBeNull();
    expect(otherLanguageOf(FRENCH, 'fr-CA')).toBeNull();
  });

  it('never judges short text, names or a language franc does not know', () => {
    expect(otherLanguageOf('Je pense, donc je suis.', 'en')).toBeNull();
    expect(otherLanguageOf('Marie Curie et Louis Pasteur.', 'en')).toBeNull();
    expect(otherLanguageOf(FRENCH, 'x-klingon')).toBeNull();
  });

  it('judges the text of a whole page against its lang, and only the parts with a lang of their own in a fragment', () => {
    const text = (value: string, lang: string) => ({ ...element, text: value, lang });
    expect(checksOf({ texts: [text(FRENCH, 'en')] })).toEqual(['a11y.language-of-parts']);
    expect(checksOf({ texts: [text(FRENCH, 'en')] }, false)).toEqual([]);
    expect(checksOf({ texts: [text(ENGLISH, 'es')] }, false)).toEqual(['a11y.language-of-parts']);
    expect(checksOf({ texts: [text(FRENCH, '')] })).toEqual([]);
  });
});

describe('structure and typography', () => {
  it('capitals: a block of text, not a heading or acronyms', () => {
    const block = (text: string, textTransform = 'none') => ({ text, textTransform });
    expect(isAllCapitals(block('PLEASE READ ALL OF THE INSTRUCTIONS BEFORE YOU START.'))).toBe(true);
    expect(isAllCapitals(block('Please read all of the instructions before you start.', 'uppercase'))).toBe(true);
    expect(isAllCapitals(block('WEEK 1: ECOSYSTEMS'))).toBe(false);
    expect(isAllCapitals(block('Read the NASA and UNESCO reports before the WHO briefing.'))).toBe(false);
    expect(isAllCapitals(block('日本語の文章はここにあります。大文字はありません。これは長い文です。'))).toBe(false);
  });

  it('tables: a layout table with data markup, a data table without headers', () => {
    const table = { ...element, layout: false, rows: 3, columns: 2, headerCells: 0, linkedCells: 0, caption: false, summary: false, blockContent: false };
    expect(checksOf({ tables: [{ ...table, layout: true, summary: true }] })).toEqual(['a11y.layout-table-data-markup']);
    expect(checksOf({ tables: [{ ...table, layout: true }] })).toEqual([]);
    expect(checksOf({ tables: [table] })).toEqual(['a11y.table-no-headers']);
    // Headers by scope or headers attributes, one row or column, or cells laid out with blocks: no finding.
    for (const clean of [{ linkedCells: 4 }, { rows: 1 }, { columns: 1 }, { blockContent: true }, { headerCells: 2 }]) expect(checksOf({ tables: [{ ...table, ...clean }] })).toEqual([]);
  });

  it('justified text only when it runs over lines', () => {
    const block = (lines: number) => ({ ...element, text: 'Some text here.', textAlign: 'justify', textTransform: 'none', lines });
    expect(checksOf({ blocks: [block(1)] })).toEqual([]);
    expect(checksOf({ blocks: [block(3)] })).toEqual(['a11y.text-justified']);
  });

  it('a refresh on a timer in a fragment; none at once, after 20 hours, or on a whole page (axe\'s meta-refresh)', () => {
    const refresh = (delay: number | null, url = '') => ({ ...element, delay, url });
    const [found] = pageCheckFindings(facts({ refresh: [refresh(10, '/next')] }), false, PLACE, URL_);
    expect(formatMessage(found!.message)).toBe('The page moves to another address after 10 seconds, before students may have finished reading it (WCAG 2.2.1, 3.2.5).');
    for (const clean of [refresh(0, '/next'), refresh(72_001), refresh(null)]) expect(checksOf({ refresh: [clean] }, false)).toEqual([]);
    expect(checksOf({ refresh: [refresh(30)] }, true)).toEqual([]);
  });
});

describe('keyboard', () => {
  it('one finding per kind, the trap first, counting the elements', () => {
    const keyboard = { tabbable: 4, presses: 3, complete: false, noVisibleFocus: [element, element], focusRemoved: [element], trap: [element], clickOnly: [element] };
    const found = pageCheckFindings(facts({ keyboard }), true, PLACE, URL_);
    expect(found.map((finding) => [finding.check, finding.count])).toEqual([
      ['a11y.keyboard-trap', 1], ['a11y.focus-not-visible', 2], ['a11y.focus-removed', 1], ['a11y.click-no-keyboard', 1],
    ]);
    expect(new Set(found.map((finding) => finding.subject)).size).toBe(4);
  });
});
