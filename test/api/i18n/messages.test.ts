// The server's messages: the English catalogue parses, every other catalogue in api/i18n/locales
// has exactly its ids and placeholders, the language list is the app's, and rendering falls back
// to English where a translation is missing.
import { readdirSync, readFileSync } from 'node:fs';
import { TYPE, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { english } from '../../../api/i18n/en/catalogue.ts';
import { LANGUAGES, closestLanguage, languageOfAcceptHeader } from '../../../api/i18n/languages.ts';
import { formatMessage, joinMessages, msg } from '../../../api/i18n/messages.ts';
import { SUPPORTED_LOCALES } from '../../../web/src/lib/i18n/locale.ts';

const LOCALES_DIR = 'api/i18n/locales';

function placeholdersOf(message: string): string[] {
  const names = new Set<string>();
  const visit = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date || element.type === TYPE.time) names.add(`${element.value}:${element.type}`);
      if (element.type === TYPE.select || element.type === TYPE.plural) {
        names.add(`${element.value}:${element.type}`);
        for (const option of Object.values(element.options)) visit(option.value);
      }
    }
  };
  visit(parse(message, { requiresOtherClause: true }));
  return [...names].sort();
}

describe('the server catalogues', () => {
  it('speak the same 23 languages as the app', () => {
    expect([...LANGUAGES].sort()).toEqual([...SUPPORTED_LOCALES].sort());
  });

  it('have English messages that all parse', () => {
    for (const [id, text] of Object.entries(english)) {
      expect(() => placeholdersOf(text), id).not.toThrow();
    }
  });

  const files = readdirSync(LOCALES_DIR).filter((file) => file.endsWith('.json'));
  it.each(files.length > 0 ? files : ['(none yet)'])('%s has every id, no other, and the same placeholders', (file) => {
    if (file === '(none yet)') return expect(files).toEqual([]);
    const tag = file.replace(/\.json$/, '');
    expect(LANGUAGES as readonly string[]).toContain(tag);
    const catalogue = JSON.parse(readFileSync(`${LOCALES_DIR}/${file}`, 'utf8')) as Record<string, string>;
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
    for (const [id, text] of Object.entries(catalogue)) {
      expect(placeholdersOf(text), `${tag} ${id}`).toEqual(placeholdersOf(english[id as keyof typeof english]));
    }
  });
});

describe('formatMessage', () => {
  it('renders values, plurals and nested messages', () => {
    expect(formatMessage(msg('error.runs.too-many', { count: 1 }))).toBe('You already have 1 test run in progress. Wait for one to finish, then start this one.');
    expect(formatMessage(msg('error.runs.too-many', { count: 3 }))).toContain('3 test runs');
    expect(formatMessage(msg('error.site.unreachable', { problem: msg('error.network.refused', { host: 'x.example' }) }))).toBe(
      'x.example refused the connection. Check the Client Site URL, or try again later.',
    );
    expect(formatMessage(joinMessages([msg('error.field.modules-empty'), msg('error.field.org-unit-invalid')]))).toBe(
      'MODULES must list at least one module ID. ORG_UNIT_ID must be a positive whole number, such as 6606.',
    );
  });

  it('falls back to English for a language without a catalogue entry', () => {
    const missing = LANGUAGES.filter((language) => language !== 'en').find((language) => {
      try {
        return !(JSON.parse(readFileSync(`${LOCALES_DIR}/${language}.json`, 'utf8')) as Record<string, string>)['error.runs.busy'];
      } catch {
        return true;
      }
    });
    if (missing === undefined) return expect(readdirSync(LOCALES_DIR).length).toBe(LANGUAGES.length - 1);
    expect(formatMessage(msg('error.runs.busy'), missing)).toBe(english['error.runs.busy']);
  });
});

describe('choosing a language', () => {
  it.each([
    ['fr', 'fr-CA'], ['fr-BE', 'fr-FR'], ['fr-ON', 'fr-ON'], ['es', 'es-419'], ['es-MX', 'es-419'], ['es-ES', 'es-ES'],
    ['en-AU', 'en-GB'], ['en-CA', 'en-CA'], ['en-US', 'en'], ['pt-PT', 'pt-BR'], ['zh-HK', 'zh-TW'], ['zh', 'zh-CN'], ['mi-NZ', 'mi'], ['ar-EG', 'ar'],
  ])('%s is served as %s', (tag, language) => {
    expect(closestLanguage(tag)).toBe(language);
  });

  it('takes the best Accept-Language entry we speak, by q-value', () => {
    expect(languageOfAcceptHeader('xx-YY, de;q=0.5, fr-CH;q=0.9')).toBe('fr-FR');
    expect(languageOfAcceptHeader('xx, yy;q=0.3')).toBeUndefined();
    expect(languageOfAcceptHeader(undefined)).toBeUndefined();
  });
});
