import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import en from '@/locales/en.json';
import { languageName } from '@/lib/i18n/language-names';
import { SUPPORTED_LOCALES, resolveLocale, textDirection } from '@/lib/i18n/locale';

describe('resolveLocale', () => {
  it('takes the first candidate with a catalogue, in the order given', () => {
    expect(resolveLocale(['fr-CA', 'de'])).toBe('fr-CA');
    expect(resolveLocale(['xx-YY', 'de-AT', 'ja'])).toBe('de');
    expect(resolveLocale([undefined, '', '  ', 'not a tag!', 'ja'])).toBe('ja');
  });

  it('matches tags whatever their case or separator', () => {
    expect(resolveLocale(['PT_br'])).toBe('pt-BR');
    expect(resolveLocale(['zh-tw'])).toBe('zh-TW');
    expect(resolveLocale(['fr-on'])).toBe('fr-ON');
    expect(resolveLocale(['ES-419'])).toBe('es-419');
    expect(resolveLocale(['en-US'])).toBe('en');
  });

  it.each([
    ['fr', 'fr-CA'],
    ['fr-BE', 'fr-FR'],
    ['fr-CH', 'fr-FR'],
    ['fr-FR', 'fr-FR'],
    ['es', 'es-419'],
    ['es-MX', 'es-419'],
    ['es-US', 'es-419'],
    ['es-AR', 'es-419'],
    ['es-ES', 'es-ES'],
    ['es-GQ', 'es-ES'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['zh', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-Hant', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['en-AU', 'en-GB'],
    ['en-IE', 'en-GB'],
    ['en-CA', 'en-CA'],
    ['en-PH', 'en'],
    ['en', 'en'],
    ['ar-EG', 'ar'],
    ['cy-GB', 'cy'],
    ['mi-NZ', 'mi'],
    ['haw-US', 'haw'],
    ['ja-JP', 'ja'],
    ['sv-FI', 'sv'],
  ])('maps %s to the %s catalogue', (tag, locale) => {
    expect(resolveLocale([tag])).toBe(locale);
  });

  it('uses a sibling variant of the language when the best one is not available', () => {
    expect(resolveLocale(['fr-BE'], ['en', 'fr-CA'])).toBe('fr-CA');
    expect(resolveLocale(['es-MX'], ['en', 'es-ES'])).toBe('es-ES');
    expect(resolveLocale(['fr-CA'], ['en', 'de'])).toBe('en');
  });

  it('falls back through en-us to en', () => {
    expect(resolveLocale(['xx', undefined, ''])).toBe('en');
    expect(resolveLocale([null], ['en', 'en-GB'])).toBe('en');
    expect(resolveLocale([])).toBe('en');
  });
});

describe('textDirection', () => {
  it('is right to left for Arabic only, among the catalogues', () => {
    expect(SUPPORTED_LOCALES.filter((locale) => textDirection(locale) === 'rtl')).toEqual(['ar']);
  });
});

describe('languageName', () => {
  it('names each language in itself, capitalised, every name different', () => {
    const names = SUPPORTED_LOCALES.map(languageName);
    expect(new Set(names).size).toBe(SUPPORTED_LOCALES.length);
    expect(names).toEqual(expect.arrayContaining(['العربية', 'Cymraeg', 'English (United States)', 'English (Canada)', 'Français (Canada)', 'Français (Ontario)', 'ʻŌlelo Hawaiʻi', 'Māori', '日本語', '中文（简体）', '中文（繁體）']));
    expect(languageName('es-419')).toMatch(/^Español/);
    expect(names.every((name) => name !== '' && !/^[a-z]{2,3}(-[A-Za-z0-9]+)?$/.test(name))).toBe(true);
  });

  it('falls back to its own endonyms where the browser has no data for a language', () => {
    vi.spyOn(Intl.DisplayNames, 'supportedLocalesOf').mockReturnValue([]);
    expect(languageName('cy')).toBe('Cymraeg');
    expect(languageName('haw')).toBe('ʻŌlelo Hawaiʻi');
    expect(languageName('mi')).toBe('Māori');
  });
});

describe('the English catalogue', () => {
  // The seed's texts, verbatim: a typo here is a typo users see.
  it.each([
    ['app.title', 'CTPO: Course Testing Protocol Observer'],
    ['auth.signIn', 'Sign in'],
    ['auth.signOut', 'Sign out'],
    ['auth.welcome', 'Welcome, {email}'],
    ['help.open', 'Need help? Click the link for instructions on how to use CTPO.'],
    ['help.title', 'How to Use the CTPO Form'],
    ['help.close', 'Close'],
    ['form.username.label', 'Brightspace Username'],
    ['form.password.label', 'Brightspace Password'],
    ['form.siteUrl.label', 'Client Site URL'],
    ['form.orgUnitId.label', 'Org Unit ID'],
    ['form.client.label', 'Client'],
    ['form.chooseModules', 'Choose Modules'],
    ['form.chooseModules.hint', 'Fill in all fields to load modules.'],
    ['form.fetchingModules', 'Fetching modules…'],
    ['form.tocFailed', 'Failed to load TOC'],
    ['modules.legend', 'Modules'],
    ['modules.selectAll', 'Select All'],
    ['modules.deselectAll', 'Deselect All'],
    ['modules.run', 'Run CTPO'],
    ['modules.running', 'Running…'],
    ['run.starting', 'Starting test run...'],
    ['run.success', '✅ Success: {message}'],
    ['run.error', '❌ Error: Failed to start test run'],
    ['job.monitoring', 'Monitoring job'],
    ['job.status.PROVISIONING', 'Setting up environment...'],
    ['job.status.PENDING', 'Job is pending...'],
    ['job.status.RUNNING', 'Job is running...'],
    ['job.status.DEPROVISIONING', 'Cleaning up resources...'],
    ['job.status.SUCCEEDED', 'QA job completed successfully.'],
    ['job.status.FAILED', 'QA job failed. Check logs for details.'],
    ['job.viewOutput', 'View HTML Output'],
    ['job.download', '⬇ Download'],
    ['job.failed', 'Job failed. Check logs for details.'],
  ])('%s is the seed’s text', (id, text) => {
    expect((en as Record<string, string>)[id]).toBe(text);
  });

  it('is flat: every value is a message string', () => {
    expect(Object.values(en).every((value) => typeof value === 'string' && value.length > 0)).toBe(true);
  });

  it('has no message the app never uses', () => {
    const sources = readdirSync('web/src', { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => readFileSync(join('web/src', file), 'utf8'))
      .join('\n');
    // Ids built at run time from a known list of statuses, problem kinds and course-wide scopes.
    const built = [
      /^job\.status\.[A-Z]+$/,
      /^runs\.status\.[A-Z]+$/,
      /^findings\.(severity|status)\.\w+$/,
      /^config\.problem\.\w+$/,
      /^scopes\.(assignments|quizzes|discussions|announcements|overview|gradebook)$/,
    ];
    const unused = Object.keys(en).filter((id) => !sources.includes(`'${id}'`) && !sources.includes(`"${id}"`) && !built.some((pattern) => pattern.test(id)));
    expect(unused).toEqual([]);
  });
});
