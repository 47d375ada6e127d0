// The verdict cache end to end, in the real browser: a second run of an unchanged course reuses every
// page's verdict without starting the browser; a changed page, a changed stylesheet or image it
// loads, a new judge, another language or enhanced contrast each make the page judged again; a
// broken link is asked again every run, a good one once it is older than the maximum age; a full run
// reuses nothing. Every run's findings are those of a run without a cache.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BrowserRunner } from '../../../api/a11y/browser-runner.ts';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { CourseTestInput } from '../../../api/engine/types.ts';
import type { Report } from '../../../api/report/model.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { startBrightspaceSite, type BrightspaceSite, type SiteModel } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { MemoryVerdictCache } from '../support/memory-verdict-cache.ts';

const ORG_UNIT = 7707;
const USER = 'qa.tester';
const PASSWORD = 'Cache-Secret-Pa55!';
const FILES = '/content/enforced/7707-CACHE1';
const NOW = new Date('2026-03-01T12:00:00Z');

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="style.css"></head><body><main>${body}</main></body></html>`;

function courseSite(web: string): SiteModel {
  return {
    login: 'form',
    users: [{ username: USER, password: PASSWORD }],
    files: {
      [`${FILES}/style.css`]: { contentType: 'text/css', body: 'body { background: #fff; } .note { color: #222; }' },
      [`${FILES}/pic.png`]: { contentType: 'image/png', body: 'png-1' },
    },
    courses: [
      {
        orgUnitId: ORG_UNIT,
        name: 'Cache 101',
        code: 'CACHE1',
        modules: [
          {
            id: 1,
            title: 'Week 1',
            topics: [
              {
                id: 11,
                title: 'Styled page',
                kind: 'html',
                fileName: 'styled.html',
                html: page('Styled page', `<h1>Cells</h1><p class="note">A cell is the smallest unit of life.</p><p><img src="pic.png" alt="A cell diagram"></p>
<p><a href="${web}/ok/reading">The reading</a>, <a href="${web}/found/guide">the guide</a> and <a href="${web}/missing/notes">the notes</a>.</p>`),
              },
              {
                id: 12,
                title: 'Plain page',
                kind: 'html',
                fileName: 'plain.html',
                html: page('Plain page', '<h1>Tissues</h1><p>Cells form tissues.</p>'),
              },
            ],
          },
        ],
      },
    ],
  };
}

let web: LinkHost;
let site: BrightspaceSite;
let model: SiteModel;
const cache = new MemoryVerdictCache();

function input(overrides: Partial<CourseTestInput> = {}, options: CourseTestInput['options'] = {}): CourseTestInput {
  return {
    siteUrl: site.origin,
    username: USER,
    password: PASSWORD,
    orgUnitId: ORG_UNIT,
    modules: 'all',
    client: 'Acme Learning',
    allowPrivateTargets: true,
    cache,
    options: { now: NOW, linkTimeoutMs: 2_000, linkLimits: { backoffMs: 20 }, enhancedContrast: false, ...options },
    ...overrides,
  };
}

function styled(): Extract<NonNullable<NonNullable<SiteModel['courses'][number]['modules'][number]['topics']>[number]>, { kind: 'html' }> {
  return model.courses[0]!.modules[0]!.topics![0] as never;
}

/** The topics whose page verdict was reused. */
function reusedTopics(report: Report): number[] {
  return (report.reuse?.items ?? []).filter((item) => item.topicId !== null).map((item) => item.topicId!).sort();
}

/** Findings as comparable rows. */
function rows(report: Report): string[] {
  return report.findings.map((f) => `${f.topicId ?? '-'} ${f.check} ${f.severity} ${f.fingerprint} ${f.message}`);
}

/** Runs with the cache, and without one on the same course: both must find the same. */
async function runBoth(overrides: Partial<CourseTestInput> = {}, options: CourseTestInput['options'] = {}): Promise<Report> {
  const cached = await runCourseTest(input(overrides, options));
  const full = await runCourseTest(input({ ...overrides, cache: undefined }, options));
  expect(rows(cached)).toEqual(rows(full));
  expect(full.reuse).toBeUndefined();
  return cached;
}

beforeAll(async () => {
  web = await startLinkHost();
  model = courseSite(web.origin);
  site = await startBrightspaceSite(model);
}, 60_000);

afterAll(async () => {
  await site?.close();
  await web?.close();
});

describe('the verdict cache in a real browser', () => {
  it('judges everything on the first run and keeps it', async () => {
    const report = await runBoth();
    expect(report.reuse).toMatchObject({ checked: 2, reused: 0, since: null, items: [] });
    expect(report.accessibility?.mode).toBe('browser');
    expect([...cache.kept.items.keys()].filter((key) => key.startsWith('page:'))).toHaveLength(2);
    // Only the good link is kept; the broken one is asked again next run.
    expect([...cache.kept.links.keys()]).toEqual([`${web.origin}/ok/reading`]);
  }, 180_000);

  it('reuses every unchanged page without starting the browser, and asks a broken link again', async () => {
    const run = vi.spyOn(BrowserRunner.prototype, 'run');
    const version = vi.spyOn(BrowserRunner.prototype, 'version');
    const okBefore = web.hits('/ok/reading');
    const brokenBefore = web.hits('/missing/notes');
    try {
      const report = await runCourseTest(input());
      expect(run).not.toHaveBeenCalled();
      expect(version).not.toHaveBeenCalled();
      expect(reusedTopics(report)).toEqual([11, 12]);
      expect(report.reuse).toMatchObject({ checked: 0, reused: 2 });
      expect(report.reuse?.since).toBe(cache.kept.items.get([...cache.kept.items.keys()][0]!)!.checkedAt);
      // The report still names the browser the verdicts were made in.
      expect(report.accessibility?.browserVersion).toMatch(/\d+\./);
      expect(report.findings.map((f) => f.check)).toContain('link.broken');
      // Said in the header, beside each reused item, and in the CSV's last column.
      const html = renderHtmlReport(report);
      expect(html).toContain('0 items checked now, 2 verdicts reused from earlier runs');
      expect(html.match(/<small class="hint reused">Verdict reused from the run of [^<]+ UTC: unchanged since\.<\/small>/g)).toHaveLength(2);
      const csv = renderCsvReport(report).split('\r\n');
      expect(csv[0]!.endsWith(',Verdict reused from the run of')).toBe(true);
      expect(csv.find((line) => line.includes('link.broken'))).toMatch(/ UTC"?$/);
    } finally {
      run.mockRestore();
      version.mockRestore();
    }
    expect(web.hits('/ok/reading')).toBe(okBefore);
    expect(web.hits('/missing/notes')).toBeGreaterThan(brokenBefore);
  }, 180_000);

  it('judges a changed page again, and only that page', async () => {
    styled().html = styled().html.replace('smallest unit', 'basic unit');
    expect(reusedTopics(await runBoth())).toEqual([12]);
    expect(reusedTopics(await runCourseTest(input()))).toEqual([11, 12]);
  }, 180_000);

  it('judges a page again when a stylesheet it uses changed, and finds what the change broke', async () => {
    model.files![`${FILES}/style.css`] = { contentType: 'text/css', body: 'body { background: #fff; } .note { color: #bbb; }' };
    const report = await runBoth();
    // Both pages use the stylesheet.
    expect(reusedTopics(report)).toEqual([]);
    expect(report.findings.some((f) => f.topicId === 11 && f.check === 'a11y.color-contrast')).toBe(true);
  }, 180_000);

  it('judges a page again when an image it loads changed', async () => {
    model.files![`${FILES}/pic.png`] = { contentType: 'image/png', body: 'png-2' };
    expect(reusedTopics(await runBoth())).toEqual([12]);
  }, 180_000);

  it('judges every page again for a new judge, another language or enhanced contrast', async () => {
    expect(reusedTopics(await runCourseTest(input()))).toEqual([11, 12]);
    expect(reusedTopics(await runCourseTest(input({}, { judges: 'axe-core 9' })))).toEqual([]);
    expect(reusedTopics(await runBoth({ language: 'fr-FR' }))).toEqual([]);
    expect(reusedTopics(await runBoth({}, { enhancedContrast: true }))).toEqual([]);
  }, 300_000);

  it('asks a link that answered through a temporary redirect again on every run', async () => {
    // A 302 may lead elsewhere tomorrow, or to a page only the last run's account could read.
    const before = web.hits('/found/guide');
    await runCourseTest(input());
    expect(web.hits('/found/guide')).toBeGreaterThan(before);
    expect(cache.kept.links.has(`${web.origin}/found/guide`)).toBe(false);
  }, 180_000);

  it('asks a good link again once its answer is older than the maximum age', async () => {
    const before = web.hits('/ok/reading');
    await runCourseTest(input());
    expect(web.hits('/ok/reading')).toBe(before);
    await runCourseTest(input({}, { linkMaxAgeMs: 0 }));
    expect(web.hits('/ok/reading')).toBeGreaterThan(before);
  }, 180_000);

  it('reuses nothing in a full run, and keeps what it checked', async () => {
    const saves = cache.saves;
    const report = await runCourseTest(input({ full: true }));
    expect(report.reuse).toMatchObject({ reused: 0, checked: 2 });
    expect(cache.saves).toBe(saves + 1);
  }, 180_000);
});

describe('the verdict cache with one browser page', () => {
  it('records what a page loaded even when the page before it, in the same kept document, loaded it too', async () => {
    const shared = new MemoryVerdictCache();
    const topics = model.courses[0]!.modules[0]!.topics!;
    const saved = topics.map((topic) => ({ ...topic }));
    // Both pages load the same stylesheet and image, one after the other in one page of the browser.
    for (const topic of topics) if (topic.kind === 'html') topic.html = topic.html.replace('</main>', '<p><img src="pic.png" alt="A cell diagram"></p></main>');
    try {
      await runCourseTest(input({ cache: shared }, { a11yPages: 1 }));
      expect(reusedTopics(await runCourseTest(input({ cache: shared }, { a11yPages: 1 })))).toEqual([11, 12]);
      model.files![`${FILES}/pic.png`] = { contentType: 'image/png', body: 'png-3' };
      expect(reusedTopics(await runCourseTest(input({ cache: shared }, { a11yPages: 1 })))).toEqual([]);
      model.files![`${FILES}/style.css`] = { contentType: 'text/css', body: 'body { background: #fff; } .note { color: #111; }' };
      expect(reusedTopics(await runCourseTest(input({ cache: shared }, { a11yPages: 1 })))).toEqual([]);
    } finally {
      topics.splice(0, topics.length, ...saved);
    }
  }, 180_000);
});
