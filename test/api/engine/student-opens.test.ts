// What a student opens beyond a page, through the real engine and the Brightspace-like site: the
// questions of a quiz (each defect found and placed at its question, the look-alike left alone) and
// a quiz whose questions the account may not read (a note, not a failure).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { Report } from '../../../api/report/model.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { opensCourseInput, opensCourseSite } from '../../fixtures/student-opens.ts';

// Whole engine runs against real servers, on a machine shared with other test runs.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let web: LinkHost;
let site: BrightspaceSite;
let report: Report;

beforeAll(async () => {
  web = await startLinkHost();
  site = await startBrightspaceSite(opensCourseSite(web.origin));
  report = await runCourseTest(opensCourseInput(site.origin));
});

afterAll(async () => {
  await site?.close();
  await web?.close();
});

const questionRows = () =>
  report.findings.filter((f) => f.question !== undefined).map((f) => `${f.itemType}:${f.itemId} q${f.question} ${f.check}`);

describe('quiz questions', () => {
  it('finds each defect of a question, its answer choices and feedback, placed at the quiz and question number', () => {
    expect(questionRows().sort()).toEqual(['quiz:801 q1 a11y.image-alt', 'quiz:801 q2 link.broken', 'quiz:801 q3 content.placeholder', 'quiz:801 q4 content.session-token']);
    // The clean look-alike (question 5) has no finding, and the quiz's own description none either.
    expect(report.findings.filter((f) => f.itemType === 'quiz' && f.question === undefined)).toEqual([]);
    for (const found of report.findings) expect(found).toMatchObject({ moduleId: 21, topicId: 211, itemTitle: 'Crystals quiz' });
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
