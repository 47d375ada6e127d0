import { describe, expect, it } from 'vitest';
import type { SelectedModule } from '../../../api/brightspace/toc.ts';
import { modulePlace, topicPlace, type Finding } from '../../../api/checks/finding.ts';
import { msg } from '../../../api/i18n/messages.ts';
import { buildReport, TOOL_VERSION } from '../../../api/report/build-report.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';

const selected: SelectedModule[] = [
  {
    module: { ModuleId: 1, Title: 'Week <1>' },
    depth: 0,
    parentModuleId: null,
    topics: [
      { TopicId: 11, Title: '<script>alert("topic")</script>' },
      { TopicId: 12, Title: 'Clean page' },
    ],
    children: [],
  },
  { module: { ModuleId: 2, Title: 'Week 2 & more' }, depth: 1, parentModuleId: 1, topics: [{ TopicId: 21, Title: 'Quiz' }], children: [] },
];

const place = (moduleId: number, topicId: number | null) => {
  const module = { ModuleId: moduleId, Title: moduleId === 1 ? 'Week <1>' : 'Week 2 & more' };
  return topicId === null ? modulePlace(module) : topicPlace(module, { TopicId: topicId, Title: 'x' });
};

const findings: Finding[] = [
  { check: 'link.redirect', severity: 'info', ...place(1, 11), url: 'https://example.com/old', message: msg('finding.link.moved', { to: 'https://example.com/new' }), element: 'img srcset', linkText: 'Map <of> "campus"', count: 3 },
  { check: 'link.broken', severity: 'error', ...place(1, 11), url: 'javascript:alert(1)', message: msg('finding.link.invalid-address', { address: 'Bad <img src=x onerror=alert(1)> link' }) },
  { check: 'structure.date-order', severity: 'error', ...place(1, null), url: null, message: msg('finding.structure.empty-module') },
  { check: 'a11y.image-alt', severity: 'error', ...place(1, 11), url: 'https://school.example.com/p.html', message: msg('finding.a11y.axe', { help: 'Images must have alternative text', count: 1 }), element: '<img src="a.png">' },
  { check: 'structure.hidden', severity: 'warning', ...place(2, 21), url: null, message: msg('finding.structure.topic-hidden') },
];

const report = buildReport({
  client: 'Acme "Learning"',
  siteUrl: 'https://school.example.com/',
  orgUnitId: 6606,
  courseName: 'Biology <101>',
  selected,
  viewUrl: (topicId) => `https://school.example.com/d2l/le/content/6606/viewContent/${topicId}/View`,
  findings,
  notScanned: [{ ...place(2, 21), title: 'Quiz', reason: msg('reason.activity.quiz') }],
  scanned: 2,
  links: 7,
  startedAt: new Date('2026-03-01T10:00:00Z'),
  finishedAt: new Date('2026-03-01T10:02:05Z'),
});

describe('buildReport', () => {
  it('sorts findings by module, module-level first, then topic, severity and check', () => {
    expect(report.findings.map((f) => `${f.moduleId}/${f.topicId ?? '-'} ${f.check}`)).toEqual([
      '1/- structure.date-order',
      '1/11 a11y.image-alt',
      '1/11 link.broken',
      '1/11 link.redirect',
      '2/21 structure.hidden',
    ]);
  });

  it('counts what the JSON twin promises', () => {
    expect(report.totals).toEqual({ topics: 3, scanned: 2, notScanned: 1, documents: 0, links: 7, linksNotCheckable: 0, findings: { error: 3, warning: 1, info: 1 }, review: 0 });
    expect(report.tool).toEqual({ name: 'CTPO', version: TOOL_VERSION });
    expect(report.modules[1]).toEqual({
      moduleId: 2,
      title: 'Week 2 & more',
      depth: 1,
      parentModuleId: 1,
      topics: [{ topicId: 21, title: 'Quiz', viewUrl: 'https://school.example.com/d2l/le/content/6606/viewContent/21/View' }],
    });
  });
});

describe('renderJsonReport', () => {
  it('is the report model, with the schema the design names', () => {
    const parsed = JSON.parse(renderJsonReport(report));
    expect(parsed).toEqual(JSON.parse(JSON.stringify(report)));
    expect(Object.keys(parsed)).toEqual(expect.arrayContaining(['schemaVersion', 'tool', 'client', 'siteUrl', 'orgUnitId', 'modules', 'startedAt', 'finishedAt', 'totals', 'findings', 'notScanned']));
  });
});

describe('renderHtmlReport', () => {
  const html = renderHtmlReport(report);

  it('escapes everything that comes from the course', () => {
    expect(html).toContain('&lt;script&gt;alert(&quot;topic&quot;)&lt;/script&gt;');
    expect(html).toContain('&quot;Bad &lt;img src=x onerror=alert(1)&gt; link&quot; is not a valid web address');
    expect(html).toContain('Week &lt;1&gt;');
    expect(html).toContain('Biology &lt;101&gt;');
    expect(html).toContain('Acme &quot;Learning&quot;');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
  });

  it('says beside a link where the author finds it: element and attribute, text or alt, how often', () => {
    expect(html).toContain('<span class="where">(<code>img srcset</code>, "Map &lt;of&gt; &quot;campus&quot;", 3 times)</span>');
  });

  it('links only web addresses', () => {
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('<p class="address">javascript:alert(1)</p>');
    expect(html).toContain('<a href="https://example.com/old" rel="noopener noreferrer" target="_blank">https://example.com/old</a>');
  });

  it('is self-contained: no script, no external style, image or font', () => {
    expect(html).not.toMatch(/<(script|link|img|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/<[^>]*\ssrc=/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
  });

  it('has a header naming the client, site, course, org unit and run time', () => {
    expect(html).toContain('<h1>Acme &quot;Learning&quot;: Biology &lt;101&gt;</h1>');
    expect(html).toContain('<dd>Biology &lt;101&gt; (org unit 6606)</dd>');
    expect(html).toContain('<dd>2026-03-01 10:00 UTC to 2026-03-01 10:02 UTC (2 min 5 s)</dd>');
    expect(html).toContain('<a href="https://school.example.com/" rel="noopener noreferrer" target="_blank">https://school.example.com/</a>');
  });

  it('summarises, charts findings by module, and links each topic to Brightspace', () => {
    expect(html).toContain('<li class="error"><strong>3</strong>errors</li>');
    expect(html).toContain('<li><strong>2 / 3</strong>topics scanned</li>');
    expect(html).toMatch(/<th scope="row"[^>]*>Week &lt;1&gt;<\/th><td class="bar" aria-hidden="true"><span class="error" style="width: 75.0%"><\/span><span class="info" style="width: 25.0%"><\/span><\/td><td class="numbers">3 errors, 1 note<\/td>/);
    expect(html).toContain('href="https://school.example.com/d2l/le/content/6606/viewContent/12/View"');
    expect(html).toContain('<p class="clean">No findings.</p>');
  });

  it('filters by severity and check with CSS only', () => {
    expect(html).toContain('<input type="checkbox" id="show-error" checked> Error (3)');
    expect(html).toContain('body:has(#show-error:not(:checked)) .finding[data-severity="error"] { display: none; }');
    const index = [...new Set(report.findings.map((f) => f.check))].sort().indexOf('link.broken');
    expect(html).toContain(`<input type="checkbox" id="show-check-${index}" checked> Broken link <code>link.broken</code> (1)`);
    expect(html).toContain(`data-check-index="${index}"`);
  });

  it('lists the topics not scanned with the reason', () => {
    expect(html).toContain('<h2 id="not-scanned-title">Not scanned (1)</h2>');
    expect(html).toContain('<tr><td>Quiz</td><td>Quiz: its questions are not read by CTPO.</td></tr>');
  });

  it('says so when there is nothing to fix', () => {
    const clean = renderHtmlReport({ ...report, findings: [], notScanned: [], totals: { ...report.totals, notScanned: 0, findings: { error: 0, warning: 0, info: 0 } } });
    expect(clean).toContain('No findings: every check passed on the topics CTPO could read.');
    expect(clean).not.toContain('Not scanned');
    expect(clean).not.toContain('id="show-error"');
  });
});
