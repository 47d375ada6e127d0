// The course's history in the report's HTML and CSV writers: nothing to compare with on a first
// run; what is new, what was fixed and what is dismissed, with who and why; everything from the
// course escaped, and nothing a spreadsheet would run.
import { describe, expect, it } from 'vitest';
import type { SelectedModule } from '../../../api/brightspace/toc.ts';
import { type Finding } from '../../../api/checks/finding.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { msg } from '../../../api/i18n/messages.ts';
import { buildReport } from '../../../api/report/build-report.ts';
import { compareWithHistory } from '../../../api/report/compare.ts';
import type { Report } from '../../../api/report/model.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { parse } from 'csv-parse/sync';

const week = { ModuleId: 1, Title: 'Week <1>' };
const selected: SelectedModule[] = [{ module: week, depth: 0, parentModuleId: null, topics: [{ TopicId: 11, Title: 'Cells' }], children: [] }];
const broken = (url: string): Finding => ({ check: 'link.broken', severity: 'error', ...topicPlace(week, { TopicId: 11, Title: 'Cells & <b>tissues</b>' }), url, message: msg('finding.link.not-found', { status: 404 }), subject: url });

function run(findings: Finding[], day: number): Report {
  return buildReport({
    client: 'Acme',
    siteUrl: 'https://school.example.com/',
    orgUnitId: 6606,
    selected,
    viewUrl: () => 'https://school.example.com/d2l/le/content/6606/viewContent/11/View',
    findings,
    notScanned: [],
    scanned: 1,
    links: 3,
    startedAt: new Date(Date.UTC(2026, 4, day, 10)),
    finishedAt: new Date(Date.UTC(2026, 4, day, 10, 2)),
  });
}

const sectionOf = (html: string, id: string) => {
  const start = html.indexOf(`<h3 id="${id}">`);
  const next = html.indexOf('<h3', start + 4);
  const end = html.indexOf('</section>', start);
  return html.slice(start, next === -1 || next > end ? end : next);
};
// Course text in HTML is isolated for the bidirectional algorithm (<bdi>); the tests read it without.
const plain = (html: string) => html.replace(/<\/?bdi>/g, '');
const csvRows = (report: Report) => parse(renderCsvReport(report), { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];

describe('the history in the HTML report', () => {
  it('says on a first run that there is nothing to compare with', () => {
    const html = plain(renderHtmlReport(compareWithHistory(run([broken('https://x.example/a')], 1), { dismissals: [] })));
    expect(html).toContain('<h2 id="history-title">Since the last run</h2>');
    expect(html).toContain('<a href="#history">Since the last run</a>');
    expect(html).toContain('This is the first run of this course for you, so there is nothing to compare it with yet.');
    expect(html).not.toContain('Fixed since the last run');
  });

  it('lists what is new and what was fixed since the last run, and counts what is still open', () => {
    const previous = run([broken('https://x.example/a'), broken('https://x.example/gone?<script>')], 1);
    const current = run([broken('https://x.example/a'), broken('javascript:alert(1)')], 2);
    const compared = compareWithHistory(current, { previous: { filename: 'acme-ou6606-previous', report: JSON.parse(renderJsonReport(previous)) }, dismissals: [] });
    const html = plain(renderHtmlReport(compared));

    // The previous run is named by when it ran and what it read, not by its file name.
    expect(html).toMatch(/Compared with your run of .+ UTC, which read Week &lt;1&gt;\./);
    expect(html).not.toContain('acme-ou6606-previous');
    expect(html).toContain('Compared on everything this run read.');
    expect(html).toContain('1 finding is new, 1 was fixed and 1 is still open.');
    const fresh = sectionOf(html, 'history-new');
    expect(fresh).toContain('New since the last run (1)');
    expect(fresh).toContain('javascript:alert(1)');
    expect(fresh).not.toContain('href="javascript');
    const fixed = sectionOf(html, 'history-fixed');
    expect(fixed).toContain('Fixed since the last run (1)');
    expect(fixed).toContain('href="https://x.example/gone?%3Cscript%3E"');
    expect(fixed).toContain('Week &lt;1&gt; › Cells &amp; &lt;b&gt;tissues&lt;/b&gt;');
    expect(html).not.toContain('<script>');
    // The new one carries its mark where it is listed with its topic, too.
    expect(html.match(/class="status-new">New</g)).toHaveLength(2);

    const rows = csvRows(compared);
    expect(rows.map((row) => [row['Address'], row['Since the last run']])).toEqual([
      ['https://x.example/a', 'Still open'],
      ['javascript:alert(1)', 'New'],
      ['https://x.example/gone?<script>', 'Fixed'],
    ]);
  });

  it('sets dismissed findings apart, with who, when and why, and says they are not counted', () => {
    const current = run([broken('https://x.example/a'), broken('https://x.example/b')], 2);
    const fingerprint = current.findings[1]!.fingerprint;
    const compared = compareWithHistory(current, { dismissals: [{ fingerprint, by: 'qa@example.com', at: '2026-05-01T12:00:00.000Z', reason: '=Vendor <fix> in June.' }] });
    const html = plain(renderHtmlReport(compared));
    expect(html).toContain('1 finding is dismissed and left out of the counts.');
    expect(html).toContain('<a href="#dismissed">Dismissed</a>');
    const dismissed = html.slice(html.indexOf('<h2 id="dismissed-title">'));
    expect(dismissed).toContain('Dismissed (1)');
    expect(dismissed).toContain(`data-fingerprint="${fingerprint}"`);
    expect(dismissed).toMatch(/Dismissed by qa@example\.com on .+ UTC\. Reason: =Vendor &lt;fix&gt; in June\./);
    expect(html).toMatch(/<li class="error"><a href="#fix-first"><strong>1<\/strong><span class="label">error<\/span><\/a><\/li>/);

    const rows = csvRows(compared);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ Address: 'https://x.example/b', 'Since the last run': 'Dismissed' });
    expect(rows[1]!['Dismissal']).toMatch(/^Dismissed by qa@example\.com on .+ UTC\. Reason: =Vendor <fix> in June\.$/);
  });

  it('says what the comparison covered: the parts both runs read, an older run for what the last one left out, and what is read for the first time', () => {
    const week2 = { ModuleId: 2, Title: 'Unit 2: Water' };
    const withWeek2 = (report: Report, modules: 'both' | 'week2', scopes: Report['scopes']): Report => ({
      ...report,
      scopes,
      modules: [
        ...(modules === 'both' ? report.modules : []),
        { moduleId: 2, title: week2.Title, depth: 0, parentModuleId: null, topics: [] },
      ],
    });
    const stored = (report: Report) => ({ filename: 'x', report: JSON.parse(renderJsonReport(report)) as unknown });
    const whole = compareWithHistory(withWeek2(run([broken('https://x.example/a')], 1), 'both', ['gradebook']), { dismissals: [] });
    const partial = compareWithHistory(withWeek2(run([], 2), 'week2', []), { previous: stored(whole), dismissals: [] });
    const partialHtml = plain(renderHtmlReport(partial));
    expect(partialHtml).toMatch(/Compared with your run of .+ UTC, which read Week &lt;1&gt;, Unit 2: Water, and Gradebook\./);
    expect(partialHtml).toContain('Compared on Unit 2: Water only.');
    expect(partialHtml).toContain('0 findings are new, 0 were fixed and 0 are still open.');

    const next = compareWithHistory(withWeek2(run([broken('https://x.example/a')], 3), 'both', ['gradebook', 'overview']), { previous: stored(partial), dismissals: [] });
    const nextHtml = plain(renderHtmlReport(next));
    expect(nextHtml).toContain('Compared on Week &lt;1&gt;, Unit 2: Water, and Gradebook only.');
    expect(nextHtml).toMatch(/The last run did not read Week &lt;1&gt; and Gradebook: compared with your run of May 1, 2026, 10:02 AM UTC, the last that did\./);
    expect(nextHtml).toContain('Read for the first time in this run, so every finding there is new: Course overview.');
    expect(nextHtml).toContain('0 findings are new, 0 were fixed and 1 is still open.');
  });

  it('leaves the history out of a report that was never compared (the command line)', () => {
    expect(renderHtmlReport(run([broken('https://x.example/a')], 1))).not.toContain('history-title');
    expect(Object.keys(csvRows(run([broken('https://x.example/a')], 1))[0]!)).not.toContain('Since the last run');
  });
});
