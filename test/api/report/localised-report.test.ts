// The report in the run's language: French, Arabic (right to left) and Japanese. The page says its
// language and direction, its findings and headings are in the language, dates and numbers follow
// it, and the CSV twin's headers are translated too.
import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { english } from '../../../api/i18n/en/catalogue.ts';
import type { Language } from '../../../api/i18n/languages.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { sampleReport } from './support/sample-report.ts';

function catalogue(language: Language): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`../../../api/i18n/locales/${language}.json`, import.meta.url), 'utf8')) as Record<string, string>;
}

function rendered(language: Language) {
  const report = sampleReport(language);
  const document = new JSDOM(renderHtmlReport(report)).window.document;
  const csvHeader = Object.keys((parse(renderCsvReport(report), { bom: true, columns: true }) as Record<string, string>[])[0]!);
  const text = (selector: string) => document.querySelector(selector)?.textContent?.replace(/[\u2068\u2069]/g, '').replace(/\s+/g, ' ').trim();
  return { report, document, csvHeader, text, words: catalogue(language) };
}

describe.each([
  ['fr-FR', 'ltr'],
  ['ar', 'rtl'],
  ['ja', 'ltr'],
] as const)('a report in %s', (language, direction) => {
  const { report, document, csvHeader, text, words } = rendered(language);

  it(`says its language and reads ${direction}`, () => {
    expect(report.language).toBe(language);
    expect(document.documentElement.getAttribute('lang')).toBe(language);
    expect(document.documentElement.getAttribute('dir')).toBe(direction);
  });

  it('has its headings, labels and severities in the language', () => {
    expect(text('#summary-title')).toBe(words['report.summary.title']);
    expect(text('#fix-first-title')).toBe(words['report.fix-first.title']);
    expect(text('#findings-title')).toBe(words['report.findings.title']);
    expect(text('#repeated-title')).toBe(words['report.repeated.title']);
    expect(text('#course-wide-title')).toBe(words['report.course-wide.title']);
    expect(text('.meta dt')).toBe(words['report.meta.client']);
    expect(text('#topic-11 .badge')).toBe(words['report.severity.error']);
    expect(text('#topic-13 .not-scanned .badge')).toBe(words['report.not-scanned.label']);
    expect(text('#topic-11 dt')).toBe(words['report.field.what']);
    for (const english_ of ['Summary', 'Fix first', 'Findings by module', 'Not scanned', 'What is wrong']) {
      expect(document.body.textContent, english_).not.toContain(english_);
    }
  });

  it('counts in the language, with its plural rules', () => {
    const lead = text('.lead')!;
    expect(lead).not.toMatch(/Found|items could not/);
    expect(lead.length).toBeGreaterThan(20);
  });

  it('has the CSV twin’s headers in the language', () => {
    expect(csvHeader).toEqual(['csv.module', 'csv.topic', 'csv.item', 'csv.check', 'csv.check-id', 'csv.severity', 'csv.what', 'csv.where', 'csv.link-text', 'csv.address', 'csv.fix', 'csv.fingerprint'].map((id) => words[id]));
  });

  it('has its findings in the language, not in English', () => {
    const message = report.findings.find((finding) => finding.check === 'structure.hidden')!.message;
    expect(message).toBe(words['finding.structure.topic-hidden']);
    expect(message).not.toBe(english['finding.structure.topic-hidden']);
  });
});

describe('the French report', () => {
  const { document, text } = rendered('fr-FR');

  it('reads as French throughout: summary, dates, findings and how to fix them', () => {
    expect(text('.lead')).toBe(
      'Constats\u00a0: 8\u00a0erreurs, 1\u00a0avertissement et 2\u00a0remarques, dans 6 des 7\u00a0sujets. 3\u00a0éléments n’ont pas pu être analysés\u00a0: vérifiez-les à la main. 1\u00a0remarque doit être examinée par une personne.'.replaceAll('\u00a0', ' ').replace(/ +/g, ' '),
    );
    expect(text('.meta dd:nth-of-type(4)')).toBe('Du 1 mars 2026, 10:00 au 1 mars 2026, 10:02 UTC (2 min 5 s)');
    expect(text('#repeated .finding dd')).toBe('La page n’existe pas (HTTP 404).');
    expect(document.querySelector('#fix-first .fix-first > li p:nth-of-type(2)')?.textContent?.replace(/\s+/g, ' ')).toBe(
      'Comment corriger : Faites pointer le lien vers une page qui existe, ou supprimez le lien.',
    );
    expect(text('#module-1 > .clean')).toBe('Aucun problème dans Clean page.');
  });
});

describe('the Arabic report', () => {
  const { document, text } = rendered('ar');

  it('mirrors: logical properties place the bar of each topic on the right', () => {
    expect(document.querySelector('style')?.textContent).toContain('.topic, .item { border-inline-start: 3px solid var(--line);');
    expect(text('.lead')).toContain('تم العثور على');
    expect(text('.lead')).toContain('8 أخطاء');
  });
});
