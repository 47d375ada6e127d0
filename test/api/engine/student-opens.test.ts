// What a student opens beyond a page, through the real engine and the Brightspace-like site: the
// questions of a quiz (each defect found and placed at its question, the look-alike left alone) and
// a quiz whose questions the account may not read (a note, not a failure); links that answer 200
// but are dead, beside real pages of the same sites.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { Report } from '../../../api/report/model.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { startSoftSites, type SoftSites } from '../../fixtures/soft-404-sites.ts';
import { opensCourseInput, opensCourseSite } from '../../fixtures/student-opens.ts';

// Whole engine runs against real servers, on a machine shared with other test runs.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let web: LinkHost;
let soft: SoftSites;
let site: BrightspaceSite;
let report: Report;

beforeAll(async () => {
  web = await startLinkHost();
  soft = await startSoftSites();
  site = await startBrightspaceSite(opensCourseSite(web.origin, { notFoundPage: soft.notFoundPage.origin, toHome: soft.toHome.origin, toSignIn: soft.toSignIn.origin, allShort: soft.allShort.origin }));
  report = await runCourseTest(opensCourseInput(site.origin));
});

afterAll(async () => {
  await site?.close();
  await web?.close();
  await soft?.close();
});

const questionRows = () =>
  report.findings.filter((f) => f.question !== undefined).map((f) => `${f.itemType}:${f.itemId} q${f.question} ${f.check}`);

describe('quiz questions', () => {
  it('finds each defect of a question, its answer choices and feedback, placed at the quiz and question number', () => {
    expect(questionRows().sort()).toEqual(['quiz:801 q1 a11y.image-alt', 'quiz:801 q2 link.broken', 'quiz:801 q3 content.placeholder', 'quiz:801 q4 content.session-token']);
    // The clean look-alike (question 5) has no finding, and the quiz's own description none either.
    expect(report.findings.filter((f) => f.itemType === 'quiz' && f.question === undefined)).toEqual([]);
    for (const found of report.findings.filter((f) => f.question !== undefined)) expect(found).toMatchObject({ moduleId: 21, topicId: 211, itemTitle: 'Crystals quiz' });
  });

  it('says where in the report and its twins, and never the session value', () => {
    const csv = renderCsvReport(report);
    expect(csv).toMatch(/question 2/);
    expect(renderJsonReport(report)).toContain('"question": 3');
    expect(renderJsonReport(report)).not.toContain('quizsecret42');
    expect(csv).not.toContain('quizsecret42');
  });

  it('notes a quiz whose questions the account may not read, and still checks the quiz', () => {
    expect(report.notes.map((note) => note.message)).toEqual([expect.stringContaining('may not read quiz questions (HTTP 403)')]);
    expect(report.items.map((item) => `${item.itemType}:${item.itemId}`)).toEqual(['quiz:801', 'quiz:802']);
  });
});

describe('links that answer 200 but are dead', () => {
  const soft404s = () => report.findings.filter((f) => f.check === 'link.soft-404');

  it('finds a "not found" page answered with 200, a redirect to the home page and one to the sign-in page, and no look-alike', () => {
    const origins = (url: string | null) => (url ?? '').replace(soft.notFoundPage.origin, 'NOT-FOUND').replace(soft.toHome.origin, 'HOME').replace(soft.toSignIn.origin, 'SIGN-IN');
    expect(soft404s().map((f) => `${f.topicId} ${origins(f.url)} ${f.linkText}`).sort()).toEqual([
      "213 HOME/2019/field-notes Field notes",
      "213 NOT-FOUND/old-syllabus Last year's syllabus",
      '213 SIGN-IN/reserves/geology Library reserves',
    ]);
    expect(report.findings.filter((f) => f.topicId === 213 && f.check.startsWith('link.')).map((f) => f.check)).toEqual(['link.soft-404', 'link.soft-404', 'link.soft-404']);
    const message = (text: string) => soft404s().find((f) => f.linkText === text)?.message;
    expect(message('Field notes')).toContain("now leads to the site's home page");
    expect(message('Library reserves')).toContain("leads to the site's sign-in page");
    expect(message("Last year's syllabus")).toContain('says it was not found');
  });

  it('asks each host for a missing address once per run, and reads pages only on hosts that answer it with a page', () => {
    for (const host of [soft.notFoundPage, soft.toHome, soft.toSignIn, soft.allShort]) {
      expect(host.paths.filter((path) => path.endsWith('-ctpo-missing-page'))).toHaveLength(1);
    }
    // The link host answers a missing address with 404: no page of it is read beyond its probe.
    expect(web.requests.filter((request) => request.path.endsWith('-ctpo-missing-page'))).toHaveLength(1);
    expect(web.requests.filter((request) => request.path === '/ok/halite').map((request) => request.method)).toEqual(['HEAD']);
  });
});
