// The CSV twin, read back with a CSV library as a spreadsheet would: one row per finding with its
// place, check, severity, what, where, link text and address, then the items not scanned; course
// text that a spreadsheet would run as a formula arrives as text.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { finding } from '../../../api/checks/catalogue.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { english } from '../../../api/i18n/en/catalogue.ts';
import { msg } from '../../../api/i18n/messages.ts';
import { buildReport } from '../../../api/report/build-report.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { NOT_SCANNED, sampleReport } from './support/sample-report.ts';

const report = sampleReport();
const csv = renderCsvReport(report);
const rows = parse(csv, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];
const findingRows = rows.filter((row) => row['Severity'] !== 'Not scanned');

describe('the CSV twin', () => {
  it('starts with a byte order mark and the headers, in the report’s language', () => {
    expect(csv.startsWith('\ufeffModule,Topic,Item,Check,Check ID,Severity,What is wrong,Where,Link text,Address,How to fix,Fingerprint\r\n')).toBe(true);
  });

  it('has one row per finding, every finding present, with its place, check, severity, what, where, link text and address', () => {
    expect(findingRows).toHaveLength(report.findings.length);
    expect(findingRows.map((row) => row['Fingerprint'])).toEqual(report.findings.map((finding) => finding.fingerprint));
    expect(findingRows[1]).toEqual({
      Module: 'Week <1>',
      Topic: '<script>alert("topic")</script>',
      Item: '',
      Check: 'Image without alt text',
      'Check ID': 'a11y.image-alt',
      Severity: 'Error',
      'What is wrong': 'Images must have alternative text (2 elements).',
      Where: 'image “cell-diagram.png” and 2 times on the page · #content > p:nth-child(2) > img',
      'Link text': '',
      Address: 'https://school.example.com/content/enforced/6606-BIO/topic-11.html',
      'How to fix': `In Brightspace: open the topic and edit its page. ${english['fix.a11y.image-alt']}`,
      Fingerprint: report.findings[1]!.fingerprint,
    });
    expect(findingRows.find((row) => row['Check ID'] === 'link.redirect')).toMatchObject({ Where: 'image “Map <of> "campus"” and 3 times on the page · img srcset', 'Link text': 'Map <of> "campus"' });
    const quiz = findingRows.find((row) => row['Check ID'] === 'link.cross-course')!;
    expect(quiz).toMatchObject({ Module: 'Project', Topic: 'Week 1 quiz', Item: 'Quiz: Quiz 1', Severity: 'Error' });
    const review = findingRows.find((row) => row['Check ID'] === 'link.unverifiable')!;
    expect(review).toMatchObject({ Module: '', Topic: '', Item: 'Announcement: -Welcome back', Severity: 'Needs review', Address: 'https://journals.example.org/archive' });
  });

  it('lists what could not be scanned after the findings, with the reason', () => {
    const skipped = rows.filter((row) => row['Severity'] === 'Not scanned');
    expect(skipped).toHaveLength(NOT_SCANNED.length);
    expect(skipped[0]).toMatchObject({ Module: 'Week <1>', Topic: 'Marks (XLSX)', 'What is wrong': 'XLSX file: CTPO reads HTML pages and PDF, Word and PowerPoint files only. Check this file by hand.', Address: 'https://school.example.com/content/enforced/6606-BIO/marks.xlsx' });
    expect(rows.slice(-NOT_SCANNED.length)).toEqual(skipped);
  });

  it('neutralises what a spreadsheet would run as a formula: =, +, - and @ at the start of a cell', () => {
    const cells = rows.flatMap((row) => Object.values(row));
    for (const cell of cells) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    const link = findingRows.find((row) => row['Check ID'] === 'link.broken' && row['Topic']!.includes('script') && row['Address']!.startsWith('javascript'))!;
    expect(link['Link text']).toBe('\'=HYPERLINK("https://evil.example","Click")');
    expect(findingRows.find((row) => row['Check ID'] === 'link.unverifiable')!['Link text']).toBe('\'+Journal archive');
    // Only the start of a cell matters to a spreadsheet; text inside stays as written.
    expect(findingRows.find((row) => row['Check ID'] === 'content.placeholder')!['What is wrong']).toContain('"@SUM(A1:A9)"');
  });

  it('neutralises each formula start in every column that holds course text', () => {
    const starts = ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\t=1', '\r=1'];
    const place = (index: number) => topicPlace({ ModuleId: 1, Title: starts[index]! }, { TopicId: 10 + index, Title: starts[index]! });
    const hostile = buildReport({
      client: '=client',
      siteUrl: 'https://school.example.com/',
      orgUnitId: 1,
      selected: [{ module: { ModuleId: 1, Title: starts[0]! }, depth: 0, parentModuleId: null, topics: starts.map((title, index) => ({ TopicId: 10 + index, Title: title })), children: [] }],
      viewUrl: () => 'https://school.example.com/',
      findings: starts.map((start, index) => finding('link.broken', place(index), start, msg('common.join', { first: start, second: 'x' }), { linkText: start, subject: start })),
      notScanned: [],
      scanned: starts.length,
      links: starts.length,
      startedAt: new Date(0),
      finishedAt: new Date(0),
    });
    const parsed = parse(renderCsvReport(hostile), { bom: true, columns: true }) as Record<string, string>[];
    expect(parsed).toHaveLength(starts.length);
    for (const [index, row] of parsed.entries()) {
      for (const column of ['Module', 'Topic', 'What is wrong', 'Link text', 'Address']) {
        expect(row[column], `${column} of row ${index}`).toMatch(/^'/);
        expect(row[column]!.slice(1).startsWith(starts[index]!), `${column} of row ${index}`).toBe(true);
      }
    }
  });

  it('quotes what would break a row: commas, quotes and line breaks', () => {
    const placeholder = findingRows.find((row) => row['Check ID'] === 'content.placeholder')!;
    expect(placeholder['What is wrong']).toBe('Placeholder text is still on the page: "@SUM(A1:A9)", "TBD". Replace it with the real content.');
    expect(csv).toContain('"Placeholder text is still on the page: ""@SUM(A1:A9)"", ""TBD"". Replace it with the real content."');
  });
});
