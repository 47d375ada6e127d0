// The report's link to the W3C's explanation of a check judged from the rendered page: named by the
// WCAG criteria it concerns, not as an axe rule; a best practice that no criterion requires says so.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { pageCheckFindings } from '../../../api/checks/page-checks.ts';
import { buildReport } from '../../../api/report/build-report.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import type { PageFacts } from '../../../api/a11y/page-checks/page-facts.ts';

const module = { ModuleId: 1, Title: 'Week 1' };
const PAGE = 'https://school.example.com/content/enforced/6606-BIO/topic-11.html';
const element = { html: '<a href="/s" style="outline:none">Syllabus', selector: 'p > a' };
const facts: PageFacts = {
  pageLang: 'en', links: [], images: [], texts: [], blocks: [], blinking: [], tables: [], refresh: [],
  underlined: [{ html: '<u>final version', selector: 'u' }],
  keyboard: { tabbable: 1, presses: 2, complete: true, noVisibleFocus: [element], focusRemoved: [], trap: [], clickOnly: [] },
};

function helpLinks(language?: 'fr-FR') {
  const report = buildReport({
    client: 'Acme', siteUrl: 'https://school.example.com/', orgUnitId: 6606, courseName: 'Biology',
    ...(language === undefined ? {} : { language }),
    selected: [{ module, depth: 0, parentModuleId: null, topics: [{ TopicId: 11, Title: 'Syllabus' }], children: [] }],
    viewUrl: (topicId) => `https://school.example.com/d2l/le/content/6606/viewContent/${topicId}/View`,
    findings: pageCheckFindings(facts, true, topicPlace(module, { TopicId: 11, Title: 'Syllabus' }), PAGE),
    notScanned: [], scanned: 1, links: 0, linksNotCheckable: 0,
    startedAt: new Date('2026-03-01T10:00:00Z'), finishedAt: new Date('2026-03-01T10:01:00Z'),
  });
  const document = new JSDOM(renderHtmlReport(report)).window.document;
  return [...document.querySelectorAll('#topic-11 a[href^="https://www.w3.org/"]')].map((link) => [link.getAttribute('href'), link.textContent?.replace(/[\u2068\u2069]/g, '')]);
}

describe('the W3C link of a page check', () => {
  it('names the WCAG criteria, or none for a best practice', () => {
    expect(helpLinks()).toEqual([
      ['https://www.w3.org/WAI/WCAG22/Techniques/failures/F78', 'What the W3C says about this (WCAG 2.4.7)'],
      ['https://www.w3.org/WAI/WCAG22/Understanding/info-and-relationships.html', 'What the W3C says about this'],
    ]);
  });

  it('in the report\'s language', () => {
    expect(helpLinks('fr-FR').map(([, text]) => text)).toEqual(['Ce qu’en dit le W3C (WCAG 2.4.7)', 'Ce qu’en dit le W3C']);
  });
});
