// The whole course through the real engine and the Brightspace-like site: descriptions,
// assignments, quizzes, discussions, announcements, the overview, the gradebook and release
// conditions, with one of each defect found and every look-alike left alone; what is read follows
// the run's scopes; and the same findings whatever form the site's lists page in.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COURSE_SCOPES } from '../../../api/brightspace/course-scopes.ts';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { RunProgress } from '../../../api/engine/progress.ts';
import type { Report } from '../../../api/report/model.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { startBrightspaceSite, type BrightspaceSite, type SiteModel } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { WHOLE_PASSWORD, wholeCourseInput, wholeCourseSite } from '../../fixtures/whole-course.ts';

// Whole engine runs against real servers, on a machine shared with other test runs.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let web: LinkHost;
let site: BrightspaceSite;
let report: Report;
const progress: RunProgress[] = [];

/** Findings as compact rows: module, topic, item, check; addresses with the servers' ports replaced. */
function rows(findings: Report['findings'], origin = site.origin): string[] {
  return findings.map((f) => [f.moduleId ?? '-', f.topicId ?? '-', `${f.itemType}:${f.itemId}`, f.check, (f.url ?? '-').replace(web.origin, 'WEB').replace(origin, 'SITE')].join(' '));
}

async function withSite<T>(overrides: Partial<SiteModel>, work: (other: BrightspaceSite) => Promise<T>): Promise<T> {
  const other = await startBrightspaceSite(wholeCourseSite(web.origin, overrides));
  try {
    return await work(other);
  } finally {
    await other.close();
  }
}

const EXPECTED = [
  '11 - module:11 content.placeholder SITE/d2l/le/content/7100/Home?itemIdentifier=D2L.LE.Content.ContentObject.ModuleCO-11',
  '11 111 topic:111 structure.release-condition-missing SITE/d2l/le/content/7100/viewContent/111/View',
  '11 112 assignment:501 content.session-token SITE/d2l/lms/dropbox/user/folder_submit_files.d2l?db=501&ou=7100',
  '11 112 assignment:501 link.broken WEB/missing/rubric',
  '11 113 topic:113 link.internal-hidden SITE/d2l/lms/quizzing/user/quiz_summary.d2l?qi=601&ou=7100',
  '11 114 topic:114 link.internal-missing SITE/d2l/common/dialogs/quickLink/quickLink.d2l?ou=7100&type=discuss&rcode=GEO201-discuss-15295',
  '11 115 topic:115 structure.date-outside-course -',
  '12 - module:12 structure.hidden -',
  '- - announcement:901 link.broken SITE/d2l/home/5555',
  '- - announcement:901 link.cross-course SITE/d2l/home/5555',
  '- - announcement:901 link.internal-hidden SITE/d2l/lms/quizzing/user/quiz_summary.d2l?qi=602&ou=7100',
  '- - announcement:902 structure.past-date -',
  '- - assignment:502 grades.missing-item SITE/d2l/lms/dropbox/user/folder_submit_files.d2l?db=502&ou=7100',
  '- - assignment:502 structure.date-order -',
  '- - course:7100 content.placeholder SITE/d2l/le/content/7100/Home',
  '- - course:7100 link.internal-missing SITE/d2l/lms/dropbox/user/folder_submit_files.d2l?db=598&ou=7100',
  '- - discussion-topic:7011 structure.date-outside-course -',
  '- - grade-item:805 grades.unassociated-item SITE/d2l/lms/grades/admin/manage/gradeslist.d2l?ou=7100',
  '- - grade-item:807 grades.unassociated-item SITE/d2l/lms/grades/admin/manage/gradeslist.d2l?ou=7100',
  '- - grade-item:820 grades.weights-not-100 SITE/d2l/lms/grades/admin/manage/gradeslist.d2l?ou=7100',
  '- - quiz:603 structure.date-outside-course -',
];

beforeAll(async () => {
  web = await startLinkHost();
  site = await startBrightspaceSite(wholeCourseSite(web.origin));
  report = await runCourseTest(wholeCourseInput(site.origin), (p) => progress.push(p));
}, 60_000);

afterAll(async () => {
  await site?.close();
  await web?.close();
});

describe('a whole-course run', () => {
  it('finds each seeded defect once, in report order, and no look-alike', () => {
    expect(rows(report.findings)).toEqual(EXPECTED);
  });

  it('says what is wrong in words a course builder acts on', () => {
    const message = (check: string, itemId: number) => report.findings.find((f) => f.check === check && f.itemId === itemId)?.message;
    expect(message('grades.weights-not-100', 820)).toBe('The weights of the 2 items in this category add up to 40%: neither 100% of the category nor its 30% of the final grade. Adjust them in Grades, Manage Grades.');
    expect(message('grades.missing-item', 502)).toBe('This assignment is graded into grade item 899, which no longer exists in the gradebook: its scores go nowhere. Link it to a grade item in its settings.');
    expect(message('structure.date-outside-course', 603)).toBe("This quiz opens on 2026-05-10, outside the course's own dates (2026-01-05 to 2026-04-30), when students cannot reach the course. Move the date inside the course's dates, or correct the course's dates.");
    expect(message('link.internal-hidden', 113)).toContain('opens the quiz "Week 1 quiz", which is hidden from students');
    expect(message('link.internal-missing', 114)).toContain('opens discussion topic 7099, which no longer exists');
    expect(message('structure.release-condition-missing', 111)).toContain('("Submitted to folder: Old lab") depends on assignment folder 599');
    // Links in HTML to the tools' items are decided from what the readers read.
    expect(message('link.internal-hidden', 901)).toContain('opens "Week 2 quiz", which is hidden from students');
    expect(message('grades.unassociated-item', 807)).toContain('tied to assignment folder 599, which no longer exists');
  });

  it('names the session parameter, never the session value', () => {
    const found = report.findings.find((f) => f.check === 'content.session-token');
    expect(found?.message).toContain('(d2lSessionVal)');
    expect(renderJsonReport(report)).not.toContain('abc123secret');
    expect(renderHtmlReport(report)).not.toContain('abc123secret');
  });

  it('places an activity a quicklink opens under that topic, and course-wide items after the modules', () => {
    const quiz = report.items.find((item) => item.itemType === 'quiz' && item.itemId === 601);
    expect(quiz).toMatchObject({ moduleId: 11, topicId: 113, itemTitle: 'Week 1 quiz', viewUrl: `${site.origin}/d2l/lms/quizzing/user/quiz_summary.d2l?qi=601&ou=7100` });
    const courseWide = report.items.filter((item) => item.moduleId === null).map((item) => `${item.itemType}:${item.itemId}`);
    expect(courseWide).toEqual([
      'announcement:902', 'announcement:901', 'assignment:502', 'assignment:503', 'course:7100', 'discussion-forum:701',
      'discussion-topic:7011', 'discussion-topic:7012', 'grade-item:807', 'grade-item:805', 'grade-item:820', 'quiz:603',
    ]);
    expect(report.items.findIndex((item) => item.moduleId === null)).toBeGreaterThan(report.items.findIndex((item) => item.moduleId !== null));
    const html = renderHtmlReport(report);
    expect(html.indexOf('id="course-wide"')).toBeGreaterThan(html.indexOf('Week 2: Rocks'));
    expect(html).toContain(`<h3 id="item-quiz-603-title"><a href="${site.origin}/d2l/lms/quizzing/user/quiz_summary.d2l?qi=603&amp;ou=7100"`);
  });

  it('counts the quicklink topics whose activity it read as scanned, and says nothing was left out', () => {
    expect(report.totals).toMatchObject({ topics: 7, scanned: 7, notScanned: 0 });
    expect(report.notScanned).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.scopes).toEqual([...COURSE_SCOPES]);
  });

  it('counts the lists it reads as the contents phase, never past its total', () => {
    const contents = progress.filter((p) => p.phase === 'contents');
    expect(contents.every((p) => p.done <= p.total)).toBe(true);
    // The table of contents, root/, 2 structures, 3 activity tools, news, overview, 3 gradebook routes, 1 forum's topics, 3 quizzes' questions.
    expect(contents.at(-1)).toEqual({ phase: 'contents', done: 16, total: 16 });
    expect(progress.map((p) => p.phase).filter((phase, i, all) => phase !== all[i - 1])).toEqual(['sign-in', 'contents', 'topics', 'links', 'report']);
  });

  it('keeps the password and the session cookies out of the reports', () => {
    const files = `${renderHtmlReport(report)}\n${renderJsonReport(report)}`;
    expect(files).not.toContain(WHOLE_PASSWORD);
    for (const cookie of site.issuedCookieValues()) expect(files).not.toContain(cookie);
  });
});

describe('what a run reads follows its scopes', () => {
  it('without scopes: the modules, their descriptions and the activities their quicklinks open, nothing course-wide', async () => {
    await withSite({}, async (other) => {
      const partial = await runCourseTest(wholeCourseInput(other.origin, { scopes: undefined }));
      const paths = other.requests.map((request) => request.path.replace(/\/d2l\/api\/le\/[\d.]+\/7100\//, ''));
      expect(paths).toEqual(expect.arrayContaining(['content/root/', 'content/modules/11/structure/', 'dropbox/folders/', 'quizzes/', 'discussions/forums/']));
      expect(paths.some((path) => path === 'news/' || path === 'overview' || path.startsWith('grades/'))).toBe(false);
      expect(partial.scopes).toEqual([]);
      expect(rows(partial.findings, other.origin)).toEqual(EXPECTED.filter((row) => !row.startsWith('- ')));
      expect(partial.items.every((item) => item.moduleId !== null)).toBe(true);
    });
  });

  it('with the gradebook only: the grade findings, which read the activities, but no announcement or overview', async () => {
    await withSite({}, async (other) => {
      const partial = await runCourseTest(wholeCourseInput(other.origin, { scopes: ['gradebook'] }));
      const courseWide = rows(partial.findings, other.origin).filter((row) => row.startsWith('- '));
      expect(courseWide).toEqual(EXPECTED.filter((row) => row.includes(' grade-item:') || row.includes('grades.missing-item')));
      expect(other.requests.some((request) => request.path.endsWith('/news/') || request.path.endsWith('/overview'))).toBe(false);
    });
  });

  it('with course-wide items and no module: every course-wide finding, no module read', async () => {
    await withSite({}, async (other) => {
      const courseWide = await runCourseTest(wholeCourseInput(other.origin, { modules: [], scopes: [...COURSE_SCOPES] }));
      expect(courseWide.modules).toEqual([]);
      expect(courseWide.totals.topics).toBe(0);
      // The assignment a module's quicklink opens is now one of every assignment, course-wide.
      const opened = EXPECTED.filter((row) => row.includes(' assignment:501 ')).map((row) => row.replace(/^11 112 /, '- - '));
      const courseWideRows = EXPECTED.filter((row) => row.startsWith('- '));
      const firstAssignment = courseWideRows.findIndex((row) => row.includes(' assignment:'));
      expect(rows(courseWide.findings, other.origin)).toEqual([...courseWideRows.slice(0, firstAssignment), ...opened, ...courseWideRows.slice(firstAssignment)]);
      expect(other.requests.some((request) => /\/content\/modules\/\d+\/structure\/$/.test(request.path))).toBe(false);
      // The report says so in every form.
      expect(renderHtmlReport(courseWide)).toContain('</html>');
      expect(JSON.parse(renderJsonReport(courseWide))).toMatchObject({ modules: [] });
    });
  });
});

describe('the same findings whatever form the lists page in', () => {
  it.each([
    ['an ObjectListPage with a relative Next', 'objects-relative'],
    ['a PagedResultSet with bookmarks', 'paged-result-set'],
    ['an ObjectListPage with an absolute Next', 'objects-absolute'],
  ] as const)('%s, one entry a page', async (_, style) => {
    await withSite({ tools: { pageSize: 1, paging: { assignments: style, quizzes: style, forums: style, topics: style, news: style, grades: style, categories: style } } }, async (other) => {
      const paged = await runCourseTest(wholeCourseInput(other.origin));
      expect(rows(paged.findings, other.origin)).toEqual(EXPECTED);
      const quizPages = other.requests.filter((request) => /\/quizzes\/(\?bookmark=\d+)?$/.test(request.path));
      expect(quizPages.map((request) => request.path.replace(/^.*\/quizzes\//, ''))).toEqual(['', '?bookmark=1', '?bookmark=2']);
    });
  });
});
