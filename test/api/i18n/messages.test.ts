// The server's messages: the English catalogue parses, every other catalogue in api/i18n/locales
// has exactly its ids, placeholders and select keys, every one of the 22 is complete, and the
// language list is the app's.
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
        // A select's keys are part of its contract (the code passes them); a plural's depend on the language.
        names.add(element.type === TYPE.select ? `${element.value}:select:${Object.keys(element.options).sort().join('|')}` : `${element.value}:${element.type}`);
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
  it('have a catalogue file for each of our languages but English, and no other', () => {
    expect(files.length).toBe(LANGUAGES.length - 1);
    for (const file of files) expect(LANGUAGES as readonly string[]).toContain(file.replace(/\.json$/, ''));
  });

  it.each(files)('%s has only ids English has, each a message that parses with the same placeholders as English', (file) => {
    const tag = file.replace(/\.json$/, '');
    const catalogue = JSON.parse(readFileSync(`${LOCALES_DIR}/${file}`, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(catalogue).filter((id) => !(id in english)), `${tag}: ids English does not have`).toEqual([]);
    for (const [id, text] of Object.entries(catalogue)) {
      expect(typeof text === 'string' && (text.trim() !== '' || english[id as keyof typeof english] === ''), `${tag} ${id}: not a message`).toBe(true);
      expect(placeholdersOf(text as string), `${tag} ${id}`).toEqual(placeholdersOf(english[id as keyof typeof english]));
    }
  });

  it('are complete in every one of the 22 other languages', () => {
    for (const language of LANGUAGES.filter((tag) => tag !== 'en')) {
      expect(files, language).toContain(`${language}.json`);
      const catalogue = JSON.parse(readFileSync(`${LOCALES_DIR}/${language}.json`, 'utf8')) as Record<string, string>;
      expect(Object.keys(english).filter((id) => !(id in catalogue)), language).toEqual([]);
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
      'MODULES must list at least one module ID, unless SCOPES lists course-wide items to test. ORG_UNIT_ID must be a positive whole number, such as 6606.',
    );
  });

  it('renders each language from its own catalogue', () => {
    for (const language of LANGUAGES.filter((tag) => tag !== 'en')) {
      const catalogue = JSON.parse(readFileSync(`${LOCALES_DIR}/${language}.json`, 'utf8')) as Record<string, string>;
      expect(formatMessage(msg('report.summary.title'), language), language).toBe(catalogue['report.summary.title']);
    }
    expect(formatMessage(msg('report.summary.title'), 'de')).not.toBe(english['report.summary.title']);
  });

  it('renders plurals by the language’s own rules', () => {
    expect(formatMessage(msg('report.count.error', { count: 2 }), 'ar')).toBe('خطأين');
    expect(formatMessage(msg('report.count.error', { count: 5 }), 'ar')).toBe('5 أخطاء');
    expect(formatMessage(msg('report.count.error', { count: 1 }), 'fr-FR')).toBe('1 erreur');
    expect(formatMessage(msg('report.count.error', { count: 1500 }), 'fr-FR')).toBe('1\u202f500 erreurs');
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
