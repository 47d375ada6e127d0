// The demo course of `npm start` through the real engine: a first run finds defects of every check
// family, leaves the clean topics alone, lists what it cannot scan, and never leaves this machine;
// a run over the whole course finds the course-wide defects too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { Report } from '../../../api/report/model.ts';
import { BrightspaceSession } from '../../../api/brightspace/session.ts';
import { DEMO_MODULES, DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER, startDemoCourse } from '../../../api/local/demo-course/demo-course.ts';
import type { DemoCourse } from '../../../api/local/demo-course/demo-course.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';
import { COURSE_SCOPES } from '../../../api/brightspace/course-scopes.ts';
import { type TocModule } from '../../../api/brightspace/types.ts';

/** Modules as the app lists them: each one, then the ones nested in it. */
function flatten(modules: TocModule[]): { id: number; title: string }[] {
  return modules.flatMap((module) => [{ id: module.ModuleId, title: module.Title }, ...flatten(module.Modules ?? [])]);
}

let demo: DemoCourse;
let report: Report;
let whole: Report;

beforeAll(async () => {
  demo = await startDemoCourse({ port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1' });
  report = await runCourseTest({
    siteUrl: demo.origin,
    username: DEMO_USER,
    password: DEMO_PASSWORD,
    orgUnitId: DEMO_ORG_UNIT,
    modules: 'all',
    client: 'Demo',
    allowPrivateTargets: true,
  });
  whole = await runCourseTest({
    siteUrl: demo.origin,
    username: DEMO_USER,
    password: DEMO_PASSWORD,
    orgUnitId: DEMO_ORG_UNIT,
    modules: 'all',
    scopes: [...COURSE_SCOPES],
    client: 'Demo',
    allowPrivateTargets: true,
  });
}, 240_000);

afterAll(async () => {
  await demo.close();
});

describe('the demo course', () => {
  it('lists its nested modules in the order DEMO_MODULES documents', async () => {
    const http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true } });
    const session = await BrightspaceSession.open({ origin: new URL(demo.origin), username: DEMO_USER, password: DEMO_PASSWORD, http });
    try {
      const toc = await session.getToc(DEMO_ORG_UNIT);
      expect(flatten(toc.Modules)).toEqual(DEMO_MODULES.map(({ id, title }) => ({ id, title })));
      expect(toc.Modules[1]!.Modules!.map((module) => module.Title)).toEqual(['1.1 Readings', '1.2 Activities']);
    } finally {
      await session.close();
      await http.close();
    }
  });

  it('has defects of every check family, each of the engine’s own checks but one', () => {
    const checks = new Set(report.findings.map((finding) => finding.check));
    for (const family of ['structure.', 'link.', 'a11y.', 'media.', 'content.', 'doc.']) {
      expect([...checks].some((check) => check.startsWith(family)), family).toBe(true);
    }
    const expected = [
      // structure.past-date: the Final project's past due date is outside the course's dates, and told
      // once, as that; an announcement's passed date is found in the whole run (below).
      'structure.broken', 'structure.hidden', 'structure.empty-module', 'structure.date-order', 'structure.duplicate-title',
      'structure.date-outside-course', 'structure.release-condition-missing',
      'link.broken', 'link.unreachable', 'link.redirect', 'link.cross-course', 'link.unverifiable', 'link.internal-missing', 'link.internal-hidden',
      'a11y.alt-filename', 'a11y.link-text-generic', 'media.no-captions', 'content.placeholder', 'content.empty', 'content.session-token',
      'doc.pdf-untagged', 'doc.no-title', 'doc.no-language', 'doc.image-no-alt', 'doc.no-headings', 'doc.slide-no-title',
      // axe-core's own rules, in headless Chromium: contrast and target sizes need a browser
      'a11y.image-alt', 'a11y.link-name', 'a11y.color-contrast', 'a11y.target-size',
    ];
    expect([...checks].sort()).toEqual(expected.sort());
    // link.insecure needs an https course; the demo is served over plain http.
    expect(checks.has('link.insecure')).toBe(false);
    // One of the errors is a placeholder in a question of the Unit 1 quiz, one an image without
    // alternative text in the course page a frame of "Unit 1 notes" shows.
    expect(report.findings.filter((finding) => finding.question !== undefined).map((finding) => `${finding.itemId} ${finding.question} ${finding.check}`)).toEqual(['2202 2 content.placeholder']);
    expect(report.findings.filter((finding) => finding.frame !== undefined).map((finding) => `${finding.topicId} ${finding.check}`)).toEqual(['2001 a11y.image-alt']);
    expect(report.totals.findings).toEqual({ error: 32, warning: 15, info: 2 });
    // Without course-wide scopes, only what the modules open is read.
    expect(report.findings.filter((finding) => finding.moduleId === null)).toEqual([]);
  });

  it('has course-wide defects a run over the whole course finds: the gradebook, announcements, the overview', () => {
    const courseWide = new Set(whole.findings.filter((finding) => finding.moduleId === null).map((finding) => `${finding.itemType} ${finding.check}`));
    expect([...courseWide].sort()).toEqual([
      'announcement link.broken', 'announcement link.cross-course', 'announcement structure.past-date',
      'assignment grades.missing-item', 'assignment structure.date-order',
      'course content.placeholder', 'course grades.weights-not-100',
      // One wrong date, one finding: the discussion's due date has passed and is outside the course.
      'discussion-topic structure.date-outside-course',
      'grade-item grades.unassociated-item',
    ]);
    // The hidden assignment nothing links to, and the bonus item, are left alone.
    expect(whole.findings.some((finding) => finding.itemTitle === 'Reflection' || finding.itemTitle === 'Extra credit')).toBe(false);
    expect(whole.notes).toEqual([]);
  });

  it('leaves its clean topics without findings', () => {
    const clean = ['Welcome to the course', 'Course outline'];
    expect(report.findings.filter((finding) => clean.includes(finding.topicTitle ?? ''))).toEqual([]);
    expect(report.findings.filter((finding) => finding.moduleTitle === 'Start here')).toEqual([]);
  });

  it('lists the topics it cannot scan, with the reason', () => {
    // The map is another site's page in a frame of "Unit 1 notes": listed, not checked here.
    expect(report.notScanned.map(({ title }) => title).sort()).toEqual(['Handout', 'Map of the wetland']);
    expect(report.notScanned.find(({ title }) => title === 'Map of the wetland')).toMatchObject({ topicId: 2001, frame: expect.stringContaining('/ok/wetland-map') });
    // The quiz, assignment and forum topics open activities the run reads.
    expect(report.totals).toMatchObject({ topics: 20, scanned: 19, notScanned: 2 });
  });

  it('reads its documents: three File topics and the slides the reading list links to', () => {
    expect(report.documents.map(({ topicTitle, type, linked }) => [topicTitle, type, linked])).toEqual([
      ['Reading list', 'pptx', true],
      ['Course syllabus (PDF)', 'pdf', false],
      ['Lab handout (Word)', 'docx', false],
      ['Rubric (PDF)', 'pdf', false],
    ]);
    expect(report.totals.documents).toBe(4);
    // The syllabus is tagged, titled and in a language: only its dead links are reported.
    const syllabus = report.findings.filter((finding) => finding.topicTitle === 'Course syllabus (PDF)');
    expect(syllabus.map((finding) => finding.check).sort()).toEqual(['link.broken', 'link.broken', 'link.cross-course']);
    expect(syllabus.every((finding) => finding.element === 'pdf link' && finding.page === 2)).toBe(true);
  });

  it('names what each finding concerns, so every fingerprint is its own and survives unrelated edits', () => {
    const unnamed = report.findings.filter((finding) => typeof finding.subject !== 'string');
    expect(unnamed.map((finding) => finding.check)).toEqual([]);
    expect(new Set(report.findings.map((finding) => finding.fingerprint)).size).toBe(report.findings.length);
  });

  it('points every outside link at servers of the demo on this machine', () => {
    const addresses = report.findings.map((finding) => finding.url).filter((url) => url !== null);
    expect(addresses.length).toBeGreaterThan(10);
    for (const address of addresses) expect(new URL(address).hostname, address).toBe('127.0.0.1');
    expect(demo.web.requests.length).toBeGreaterThan(0);
  });
});
