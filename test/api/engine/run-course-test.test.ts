import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../api/errors.ts';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { CourseTestInput } from '../../../api/engine/types.ts';
import type { RunProgress } from '../../../api/engine/progress.ts';
import type { Report } from '../../../api/report/model.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { chromiumChildren } from '../support/chromium.ts';
import { SAMPLE_NOW, SAMPLE_ORG_UNIT, SAMPLE_PASSWORD, SAMPLE_USER, sampleSite } from '../../fixtures/sample-course.ts';

let web: LinkHost;
let site: BrightspaceSite;
let report: Report;
const progress: RunProgress[] = [];
const logged: string[] = [];

function input(overrides: Partial<CourseTestInput> = {}): CourseTestInput {
  return {
    siteUrl: site.origin,
    username: SAMPLE_USER,
    password: SAMPLE_PASSWORD,
    orgUnitId: SAMPLE_ORG_UNIT,
    modules: 'all',
    client: 'Acme Learning',
    allowPrivateTargets: true,
    options: { now: SAMPLE_NOW, linkTimeoutMs: 1_000, linkLimits: { backoffMs: 20 } },
    ...overrides,
  };
}

beforeAll(async () => {
  web = await startLinkHost();
  site = await startBrightspaceSite(sampleSite(web.origin));
  // Everything the run prints, wherever it prints it, is kept to prove no secret is in it.
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }
  const write = (chunk: unknown) => {
    logged.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(write);
  vi.spyOn(process.stderr, 'write').mockImplementation(write);
  try {
    report = await runCourseTest(input(), (p) => progress.push(p));
  } finally {
    vi.restoreAllMocks();
  }
}, 120_000);

afterAll(async () => {
  await site.close();
  await web.close();
});

/** Findings as compact rows, addresses with the servers' changing ports replaced. */
function rows(findings: Report['findings']): string[] {
  return findings.map((f) =>
    [f.moduleId, f.topicId ?? '-', f.check, f.severity, (f.url ?? '-').replace(web.origin, 'WEB').replace(site.origin, 'SITE')].join(' '),
  );
}

describe('runCourseTest against the Brightspace-like site', () => {
  it('finds exactly the defects the course has, in course order', () => {
    expect(rows(report.findings)).toEqual([
      '10 102 structure.duplicate-title warning -',
      '10 103 content.placeholder error SITE/content/enforced/6606-BIO101/video.html',
      '10 103 media.no-captions error WEB/ok/intro.mp4',
      '20 - structure.date-order error -',
      '20 - structure.past-date warning -',
      '20 201 a11y.alt-filename error WEB/ok/cell-diagram.png',
      '20 201 a11y.image-alt error SITE/content/enforced/6606-BIO101/week1/reading.html',
      '20 201 a11y.target-size error SITE/content/enforced/6606-BIO101/week1/reading.html',
      '20 201 link.broken error WEB/gone/old-notes',
      '20 201 link.broken error WEB/missing/article',
      '20 201 link.unreachable error WEB/hang/video-library',
      '20 201 a11y.link-text-generic warning WEB/ok/lab-manual',
      '20 201 link.redirect info WEB/moved/textbook',
      '20 201 link.unverifiable info WEB/forbidden/journal',
      '20 202 content.placeholder error SITE/content/enforced/6606-BIO101/week1/safety.html',
      '20 202 link.broken error SITE/content/enforced/7777-OLD/safety.pdf',
      '20 202 link.broken error SITE/d2l/le/content/7777/viewContent/1/View',
      '20 202 link.cross-course error SITE/content/enforced/7777-OLD/safety.pdf',
      '20 202 link.cross-course error SITE/d2l/le/content/7777/viewContent/1/View',
      '20 203 content.empty warning SITE/content/enforced/6606-BIO101/week1/notes.html',
      '20 205 link.cross-course error SITE/d2l/common/dialogs/quickLink/quickLink.d2l?ou=7777&type=quiz&rCode=Q1',
      '20 206 structure.broken error -',
      '30 - structure.empty-module warning -',
      '30 - structure.hidden warning -',
      '40 - structure.past-date warning -',
      '40 401 structure.date-order error -',
      '40 402 structure.hidden warning -',
      '41 411 link.broken error SITE/content/enforced/6606-BIO101/exam/exam/sample.html',
      '41 411 link.broken error https://[broken',
    ]);
  });

  it('says what is wrong in words a course builder understands', () => {
    const message = (check: string, topicId: number | null) => report.findings.find((f) => f.check === check && f.topicId === topicId)?.message;
    expect(message('structure.date-order', null)).toBe('This module ends (2026-01-05) before it starts (2026-01-10). Fix the dates in its restrictions.');
    expect(message('content.placeholder', 202)).toBe(
      'Placeholder text is still on the page: "Lorem ipsum", "[insert equipment list here]". Replace it with the real content.',
    );
    expect(message('link.unreachable', 201)).toMatch(/did not answer within 1 s\. CTPO tried 3 times\.$/);
    expect(message('link.redirect', 201)).toBe(`This address has moved permanently to ${web.origin}/ok/textbook. Update the link.`);
    // Both engines in the browser fail the image: one finding naming both.
    expect(message('a11y.image-alt', 201)).toBe('Images must have alternative text (1 element). Found by axe-core and IBM Equal Access.');
    expect(report.findings.find((f) => f.check === 'a11y.image-alt' && f.topicId === 201)?.element).toBe(`<img src="${web.origin}/ok/organelles.png">`);
  });

  it('lists the topics it could not read, with the reason', () => {
    expect(report.notScanned.map(({ topicId, title, reason, itemType }) => ({ topicId, title, reason, itemType }))).toEqual([
      { topicId: 204, title: 'Slides', reason: 'This file could not be read as a PDF: it may be damaged, or be another kind of file with the wrong extension. Open it to check, then upload it again.', itemType: 'topic' },
      { topicId: 205, title: 'Week 1 quiz', reason: 'Quiz: its questions are not read by CTPO.', itemType: 'topic' },
      { topicId: 206, title: 'Handout', reason: 'Brightspace could not return this file (HTTP 404).', itemType: 'topic' },
    ]);
    expect(report.notScanned.every((item) => item.moduleId === 20)).toBe(true);
    expect(report.totals).toEqual({ topics: 12, scanned: 9, notScanned: 3, documents: 0, links: 26, linksNotCheckable: 1, findings: { error: 19, warning: 8, info: 2 }, review: 0 });
  });

  it('says how accessibility was checked: in headless Chromium, nothing left out', () => {
    expect(report.accessibility).toMatchObject({ mode: 'browser', notRun: [], ruleErrors: [], enhancedContrast: false });
    expect(report.accessibility?.note).toBeUndefined();
    expect(report.accessibility?.summary).toMatch(/^Accessibility was checked with axe-core [\d.]+ in headless Chromium \d+[\d.]*: .*colour contrast included\. IBM Equal Access [\d.]+ checked the same pages beside axe-core .*reported once\.$/);
  });

  it('describes the course and the modules in table-of-contents order', () => {
    expect(report).toMatchObject({ schemaVersion: 3, language: 'en', scopes: [], tool: { name: 'CTPO' }, client: 'Acme Learning', siteUrl: `${site.origin}/`, orgUnitId: 6606, courseName: 'Biology 101' });
    expect(report.modules.map((m) => [m.moduleId, m.depth, m.parentModuleId, m.topics.length])).toEqual([
      [10, 0, null, 3],
      [20, 0, null, 6],
      [30, 0, null, 0],
      [40, 0, null, 2],
      [41, 1, 40, 1],
    ]);
    expect(report.modules[0]?.topics[0]?.viewUrl).toBe(`${site.origin}/d2l/le/content/6606/viewContent/101/View`);
  });

  it('checks each distinct address once, retrying only what deserves it', () => {
    const heads = (path: string) => web.requests.filter((r) => r.path === path && r.method === 'HEAD').length;
    const gets = (path: string) => web.requests.filter((r) => r.path === path && r.method === 'GET').length;
    expect(heads('/ok/syllabus')).toBe(1); // linked from two topics
    expect(gets('/ok/syllabus')).toBe(0);
    expect([heads('/missing/article'), gets('/missing/article')]).toEqual([1, 1]); // HEAD, then GET to be sure
    expect([heads('/no-head/diagram'), gets('/no-head/diagram')]).toEqual([1, 1]);
    expect(web.hits('/flaky/2/quiz-bank')).toBe(3); // HEAD 503, GET 503, GET 200
    expect(web.hits('/limited/glossary')).toBe(2); // 429 with Retry-After, then 200
    expect(web.hits('/hang/video-library')).toBe(3); // a timeout is retried twice
    expect(web.hits('/forbidden/journal')).toBe(2);
  });

  it('sends the session to the Brightspace site only', () => {
    expect(web.requests.length).toBeGreaterThan(10);
    expect(web.requests.every((r) => r.cookie === undefined)).toBe(true);
    const ownLinks = site.requests.filter((r) => r.path.startsWith('/d2l/home/6606') || r.path.startsWith('/content/enforced/6606-BIO101/images/'));
    expect(ownLinks.length).toBeGreaterThan(0);
    expect(ownLinks.every((r) => r.withSession)).toBe(true);
    expect(site.activeSessions()).toBe(0); // signed out at the end
  });

  it('reports progress phase by phase', () => {
    const phases = progress.map((p) => p.phase).filter((phase, i, all) => phase !== all[i - 1]);
    expect(phases).toEqual(['sign-in', 'contents', 'topics', 'links', 'report']);
    expect(progress.filter((p) => p.phase === 'topics').at(-1)).toEqual({ phase: 'topics', done: 12, total: 12 });
    expect(progress.filter((p) => p.phase === 'links').at(-1)).toEqual({ phase: 'links', done: 24, total: 24 });
    expect(progress.at(-1)).toEqual({ phase: 'report', done: 1, total: 1 });
  });

  it('keeps the password and the session cookies out of the reports and the logs', () => {
    const files = [renderHtmlReport(report), renderJsonReport(report), renderCsvReport(report), ...logged].join('\n');
    const cookies = site.issuedCookieValues();
    expect(cookies.length).toBeGreaterThanOrEqual(2);
    expect(files).not.toContain(SAMPLE_PASSWORD);
    for (const cookie of cookies) expect(files).not.toContain(cookie);
  });

  it('escapes course content in the HTML report', () => {
    const html = renderHtmlReport(report);
    expect(html).toContain('Practice &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Practice &lt;b&gt;page&lt;/b&gt;');
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('tests only the modules picked, with what is nested in them', async () => {
    const partial = await runCourseTest(input({ modules: [40] }));
    expect(partial.modules.map((m) => m.moduleId)).toEqual([40, 41]);
    expect(new Set(partial.findings.map((f) => f.moduleId))).toEqual(new Set([40, 41]));
    expect(partial.totals.topics).toBe(3);
  }, 60_000);

  it('leaves out the sub-modules it is asked to, and keeps the parent’s own topics', async () => {
    const parentOnly = await runCourseTest(input({ modules: [40], excludeModules: [41] }));
    expect(parentOnly.modules.map((m) => m.moduleId)).toEqual([40]);
    expect(new Set(parentOnly.findings.map((f) => f.moduleId))).toEqual(new Set([40]));
    expect(parentOnly.totals.topics).toBe(2);
  }, 60_000);
});

describe('runCourseTest failures', () => {
  async function failure(promise: Promise<unknown>): Promise<AppError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('expected the run to fail');
  }

  it('refuses modules the course does not have, and other bad input', async () => {
    expect((await failure(runCourseTest(input({ modules: [10, 999] })))).message).toContain('Module 999 is not in this course');
    expect((await failure(runCourseTest(input({ modules: [] })))).message).toBe('Pick at least one module or course-wide item to test.');
    expect((await failure(runCourseTest(input({ modules: [20], excludeModules: [40] })))).message).toContain('Module 40 is not inside a chosen module');
    expect((await failure(runCourseTest(input({ client: ' ' })))).message).toBe('The Client label is missing.');
    expect((await failure(runCourseTest(input({ orgUnitId: -3 })))).code).toBe('invalid_input');
  });

  it('passes the sign-in refusal on, without the password', async () => {
    const error = await failure(runCourseTest(input({ password: 'not-the-password' })));
    expect(error.code).toBe('login_failed');
    expect(JSON.stringify(error) + error.message + error.stack).not.toContain('not-the-password');
  });

  it('stops when the runner cancels the run', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the runner');
    const run = runCourseTest(input({ signal: controller.signal }), (p) => {
      if (p.phase === 'topics') controller.abort(reason);
    });
    await expect(run).rejects.toBe(reason);
    // The run's browser went with it.
    expect(await chromiumChildren()).toEqual([]);
  });

  it('leaves no browser behind when the run fails', async () => {
    await expect(runCourseTest(input({ password: 'wrong' }))).rejects.toThrow();
    expect(await chromiumChildren()).toEqual([]);
  });
});

describe('runCourseTest and the documents', () => {
  it('closes the browser once the pages are checked, before it downloads a document to read', async () => {
    // Whether a Chromium of this process is alive, asked as the download of the PDF topic (Slides,
    // topic 204) arrives; the HTML topics are read through the same route while the browser runs.
    const atDownload: Promise<number[]>[] = [];
    const record = site.requests.push;
    site.requests.push = function (...entries) {
      for (const entry of entries) if (/\/content\/topics\/204\/file$/.test(entry.path)) atDownload.push(chromiumChildren());
      return record.apply(this, entries);
    };
    let checked: Report;
    try {
      checked = await runCourseTest(input({ modules: [20] }));
    } finally {
      site.requests.push = record;
    }
    expect(checked.accessibility?.mode).toBe('browser');
    expect(checked.accessibility?.browserVersion).toMatch(/^\d+\./);
    expect(atDownload.length).toBeGreaterThan(0);
    for (const alive of await Promise.all(atDownload)) expect(alive).toEqual([]);
  }, 120_000);
});

describe('runCourseTest without a browser', () => {
  it('falls back to jsdom and says in the header what was not checked', async () => {
    const fallback = await runCourseTest(input({ modules: [20], options: { now: SAMPLE_NOW, linkTimeoutMs: 1_000, linkLimits: { backoffMs: 20 }, chromium: null } }));
    expect(fallback.accessibility).toMatchObject({ mode: 'jsdom', enhancedContrast: false, ruleErrors: [], ruleErrorNotes: [] });
    expect(fallback.accessibility?.notRun).toContain('color-contrast');
    expect(fallback.accessibility?.note).toBe(
      `Checked without a browser: colour contrast and ${fallback.accessibility!.notRun.length - 1} other rules were not checked. Install Chromium for the full check.`,
    );
    expect(fallback.findings.some((f) => f.check === 'a11y.target-size')).toBe(false);
    expect(fallback.findings.find((f) => f.check === 'a11y.image-alt' && f.topicId === 201)).toBeDefined();
    expect(renderHtmlReport(fallback)).toContain('Checked without a browser: colour contrast and');
  }, 120_000);
});
