// Checks every catalogue file in web/src/locales against the English one: the same ids, messages
// that parse, the same placeholders (names and types) and rich-text tags, and real translations
// rather than copies of English. Reads whatever files exist, and requires all 23.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TYPE, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '@/lib/i18n/locale';

const LOCALES_DIR = 'web/src/locales';
const ALLOWED_TAGS = ['b', 'br', 'em', 'i', 'p', 'strong', 'button', 'link', 'tooltip-help'];
// Regional variants of English: they exist for their spellings, and are mostly English by nature.
const ENGLISH_VARIANTS = ['en-CA', 'en-GB'];
// "Mostly English": more than this share of the translatable messages left exactly as in English.
const MAX_IDENTICAL_SHARE = 0.2;
// Names that stay as they are in every language; a message made only of these (and placeholders,
// digits, punctuation, symbols) has nothing to translate.
const BRAND_TERMS = /\b(CTPO|Brightspace|D2L|HTML|URL|TOC|ID|JSON)\b/g;

function readCatalogue(tag: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(LOCALES_DIR, `${tag}.json`), 'utf8')) as Record<string, unknown>;
}

const files = readdirSync(LOCALES_DIR).filter((file) => file.endsWith('.json'));
const tags = files.map((file) => file.replace(/\.json$/, ''));
const english = readCatalogue('en') as Record<string, string>;
const translations = tags.filter((tag) => tag !== 'en');

interface Shape {
  placeholders: string[];
  tags: string[];
  /** Literal text that looks like markup the parser did not read as a tag, such as "<br/>". */
  strayMarkup: string[];
}

function shapeOf(message: string): Shape {
  const placeholders = new Set<string>();
  const tagNames = new Set<string>();
  const strayMarkup: string[] = [];
  const visit = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      switch (element.type) {
        case TYPE.literal:
          strayMarkup.push(...(element.value.match(/<\/?[A-Za-z][\w-]*\s*\/?>/g) ?? []));
          break;
        case TYPE.argument:
          placeholders.add(`${element.value}:argument`);
          break;
        case TYPE.number:
          placeholders.add(`${element.value}:number`);
          break;
        case TYPE.date:
          placeholders.add(`${element.value}:date`);
          break;
        case TYPE.time:
          placeholders.add(`${element.value}:time`);
          break;
        case TYPE.select:
          placeholders.add(`${element.value}:select`);
          for (const option of Object.values(element.options)) visit(option.value);
          break;
        case TYPE.plural:
          placeholders.add(`${element.value}:${element.pluralType === 'ordinal' ? 'selectordinal' : 'plural'}`);
          for (const option of Object.values(element.options)) visit(option.value);
          break;
        case TYPE.tag:
          tagNames.add(element.value);
          visit(element.children);
          break;
        default:
          break;
      }
    }
  };
  visit(parse(message, { requiresOtherClause: true }));
  return { placeholders: [...placeholders].sort(), tags: [...tagNames].sort(), strayMarkup };
}

function hasWordsToTranslate(message: string): boolean {
  const text = message.replace(/\{[^{}]*\}/g, ' ').replace(BRAND_TERMS, ' ');
  return /\p{L}{2,}/u.test(text);
}

/** The translatable English messages a catalogue leaves exactly as in English, and their share. */
function identicalToEnglish(catalogue: Record<string, unknown>): { identical: string[]; share: number } {
  const translatable = Object.keys(english).filter((id) => hasWordsToTranslate(english[id] ?? ''));
  const identical = translatable.filter((id) => catalogue[id] === english[id]);
  return { identical, share: identical.length / translatable.length };
}

describe('the catalogue files', () => {
  it('exist for all 23 languages of the seed, and no other', () => {
    expect([...tags].sort()).toEqual([...SUPPORTED_LOCALES].sort());
  });

  it('English parses, and uses only the rich-text tags b, br, em, i, p, strong, button, link, tooltip-help', () => {
    const problems = Object.entries(english).flatMap(([id, message]) => {
      try {
        const shape = shapeOf(message);
        const badTags = shape.tags.filter((tag) => !ALLOWED_TAGS.includes(tag));
        return [...badTags.map((tag) => `${id}: <${tag}>`), ...shape.strayMarkup.map((markup) => `${id}: ${markup}`)];
      } catch (error) {
        return [`${id}: ${(error as Error).message}`];
      }
    });
    expect(problems).toEqual([]);
  });
});

/** What is wrong with a catalogue's ids: not message strings, missing, or not in English. */
function idProblems(catalogue: Record<string, unknown>) {
  return {
    notMessages: Object.entries(catalogue)
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([id]) => id),
    missing: Object.keys(english).filter((id) => !(id in catalogue)),
    extra: Object.keys(catalogue).filter((id) => !(id in english)),
  };
}

/** Messages that do not parse, or whose placeholders or tags are not English's. */
function messageProblems(catalogue: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [id, englishMessage] of Object.entries(english)) {
    const message = catalogue[id];
    if (typeof message !== 'string') continue;
    let shape: Shape;
    try {
      shape = shapeOf(message);
    } catch (error) {
      problems.push(`${id}: does not parse (${(error as Error).message})`);
      continue;
    }
    const expected = shapeOf(englishMessage);
    if (shape.placeholders.join() !== expected.placeholders.join()) {
      problems.push(`${id}: placeholders [${shape.placeholders.join(', ')}], English has [${expected.placeholders.join(', ')}]`);
    }
    if (shape.tags.join() !== expected.tags.join()) {
      problems.push(`${id}: tags [${shape.tags.join(', ')}], English has [${expected.tags.join(', ')}]`);
    }
    if (shape.strayMarkup.length > 0) problems.push(`${id}: markup the parser reads as text: ${shape.strayMarkup.join(' ')}`);
  }
  return problems;
}

describe.each(translations)('the %s catalogue', (tag) => {
  const catalogue = readCatalogue(tag);

  it('is a flat object of non-empty messages with exactly the English ids: none missing, none extra', () => {
    expect(idProblems(catalogue)).toEqual({ notMessages: [], missing: [], extra: [] });
  });

  it('has messages that parse, with the placeholders (names and types) and tags of English', () => {
    expect(messageProblems(catalogue)).toEqual([]);
  });
});

describe('the catalogue checks', () => {
  it('catch a missing id, an extra one and an empty message', () => {
    const { ['auth.signIn']: _dropped, ...rest } = english;
    expect(idProblems({ ...rest, 'auth.signOut': ' ', 'auth.logIn': 'Connexion' })).toEqual({
      notMessages: ['auth.signOut'],
      missing: ['auth.signIn'],
      extra: ['auth.logIn'],
    });
  });

  it('catch a message that does not parse, a renamed or retyped placeholder, a new tag and stray markup', () => {
    expect(
      messageProblems({
        ...english,
        'auth.welcome': 'Bienvenue, {email',
        'config.problem.http': 'Statut HTTP {code}.',
        'job.progress': 'Progression : {done} sur {total, number}',
        'auth.signIn': '<b>Connexion</b>',
        'help.close': 'Fermer<br/>',
        'errorSummary.title': '{count, plural, one {1 erreur}}',
      }),
    ).toEqual([
      expect.stringMatching(/^config\.problem\.http: placeholders \[code:argument\], English has \[status:argument\]/),
      expect.stringMatching(/^auth\.signIn: tags \[b\], English has \[\]/),
      expect.stringMatching(/^auth\.welcome: does not parse/),
      expect.stringMatching(/^help\.close: markup the parser reads as text: <br\/>/),
      expect.stringMatching(/^job\.progress: placeholders \[done:argument, total:number\], English has \[done:number, total:number\]/),
      expect.stringMatching(/^errorSummary\.title: does not parse/),
    ]);
  });
});

describe.each(translations.filter((tag) => !ENGLISH_VARIANTS.includes(tag)))('the %s translation', (tag) => {
  it('is not mostly English: at most 20% of its translatable messages are identical to English', () => {
    const { identical, share } = identicalToEnglish(readCatalogue(tag));
    expect(share, `identical to English: ${identical.join(', ')}`).toBeLessThanOrEqual(MAX_IDENTICAL_SHARE);
  });
});

describe('the "mostly English" check', () => {
  it('counts a copy of English as untranslated and leaves brand-only messages out', () => {
    expect(hasWordsToTranslate('CTPO: Course Testing Protocol Observer')).toBe(true);
    expect(hasWordsToTranslate('{field} must be an object.')).toBe(true);
    expect(hasWordsToTranslate('✅ {message}')).toBe(false);
    expect(hasWordsToTranslate('CTPO')).toBe(false);
    expect(hasWordsToTranslate('HTML · URL')).toBe(false);
    const translatable = Object.keys(english).filter((id) => hasWordsToTranslate(english[id] ?? ''));
    expect(translatable.length).toBeGreaterThan(Object.keys(english).length * 0.9);
  });

  it('fails a copy of English, and one with a quarter of its messages left in English', () => {
    expect(identicalToEnglish({ ...english }).share).toBe(1);
    const ids = Object.keys(english);
    const partly = Object.fromEntries(ids.map((id, index) => [id, index % 4 === 0 ? english[id] : `« ${english[id]} »`]));
    expect(identicalToEnglish(partly).share).toBeGreaterThan(MAX_IDENTICAL_SHARE);
  });
});
