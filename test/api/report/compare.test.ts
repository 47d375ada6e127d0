// The comparison of a new report with the previous run of the course (report/compare.ts): new,
// still open, fixed, dismissed, the first run, and only where both runs looked.
import { describe, expect, it } from 'vitest';
import type { SelectedModule } from '../../../api/brightspace/toc.ts';
import { type Finding, type NotScanned } from '../../../api/checks/finding.ts';
import { itemPlace, modulePlace, topicPlace, type ItemPlace } from '../../../api/brightspace/places.ts';
import type { CourseScope } from '../../../api/brightspace/course-scopes.ts';
import { msg } from '../../../api/i18n/messages.ts';
import { buildReport } from '../../../api/report/build-report.ts';
import { compareWithHistory } from '../../../api/report/compare.ts';
import type { Dismissal, Report } from '../../../api/report/model.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';

const week1 = { ModuleId: 1, Title: 'Week 1' };
const week2 = { ModuleId: 2, Title: 'Week 2' };
const cells = topicPlace(week1, { TopicId: 11, Title: 'Cells' });
const tissues = topicPlace(week1, { TopicId: 12, Title: 'Tissues' });
const organs = topicPlace(week2, { TopicId: 21, Title: 'Organs' });
const quiz = itemPlace('quiz', 901, 'Quiz 1');

const broken = (place: ItemPlace, url: string): Finding => ({
  check: 'link.broken',
  severity: 'error',
  ...place,
  url,
  message: msg('finding.link.not-found', { status: 404 }),
  subject: url,
});
const placeholder = (place: ItemPlace): Finding => ({ check: 'content.placeholder', severity: 'error', ...place, url: null, message: msg('finding.content.placeholder', { examples: '"TODO"' }), subject: 'text' });
const hidden = (place: ItemPlace): Finding => ({ check: 'structure.hidden', severity: 'warning', ...place, url: null, message: msg('finding.structure.topic-hidden'), subject: 'visibility' });
const review = (place: ItemPlace): Finding => ({ ...hidden(place), check: 'a11y.color-contrast', severity: 'info', review: true, subject: 'color-contrast:review' });

const selectionOf = (modules: (typeof week1)[]): SelectedModule[] =>
  modules.map((module) => ({
    module,
    depth: 0,
    parentModuleId: null,
    topics: module === week1 ? [{ TopicId: 11, Title: 'Cells' }, { TopicId: 12, Title: 'Tissues' }] : [{ TopicId: 21, Title: 'Organs' }],
    children: [],
  }));

function run(findings: Finding[], options: { modules?: (typeof week1)[]; notScanned?: NotScanned[]; scopes?: CourseScope[]; day?: number } = {}): Report {
  const day = options.day ?? 1;
  return buildReport({
    client: 'Acme',
    siteUrl: 'https://school.example.com/',
    orgUnitId: 6606,
    courseName: 'Biology 101',
    scopes: options.scopes ?? [],
    selected: selectionOf(options.modules ?? [week1, week2]),
    viewUrl: (topicId) => `https://school.example.com/d2l/le/content/6606/viewContent/${topicId}/View`,
    findings,
    notScanned: options.notScanned ?? [],
    scanned: 3,
    links: 10,
    startedAt: new Date(Date.UTC(2026, 4, day, 10)),
    finishedAt: new Date(Date.UTC(2026, 4, day, 10, 2)),
  });
}

/** The previous run as the runner reads it back: its JSON twin, parsed. */
const asStored = (report: Report) => ({ filename: 'acme-ou6606-previous', report: JSON.parse(renderJsonReport(report)) as unknown });

const fingerprintOf = (report: Report, check: string, topicId: number | null) => report.findings.find((finding) => finding.check === check && finding.topicId === topicId)!.fingerprint;

describe('comparing a run with the previous run of the course', () => {
  it('says there is nothing to compare with on the first run, and marks nothing', () => {
    const compared = compareWithHistory(run([broken(cells, 'https://x.example/a')]), { dismissals: [] });
    expect(compared.comparison).toEqual({ previous: null, compared: [], firstRead: [], fixed: [], carried: { places: [], findings: [], dismissed: [] } });
    expect(compared.totals.comparison).toBeUndefined();
    expect(compared.findings.every((finding) => finding.status === undefined)).toBe(true);
    expect(compared.totals.findings).toEqual({ error: 1, warning: 0, info: 0 });
    expect(compared.dismissed).toEqual([]);
  });

  it('marks findings new or open and lists the fixed ones as the previous report wrote them', () => {
    const previous = run([broken(cells, 'https://x.example/a'), broken(cells, 'https://x.example/gone'), placeholder(tissues), hidden(organs)]);
    const current = run([broken(cells, 'https://x.example/a'), placeholder(tissues), broken(organs, 'https://x.example/new'), hidden(organs)], { day: 2 });
    const compared = compareWithHistory(current, { previous: asStored(previous), dismissals: [] });

    expect(compared.findings.map((finding) => `${finding.check} ${finding.topicId} ${finding.status}`)).toEqual([
      'link.broken 11 open',
      'content.placeholder 12 open',
      'link.broken 21 new',
      'structure.hidden 21 open',
    ]);
    expect(compared.comparison?.previous).toEqual({
      filename: 'acme-ou6606-previous',
      startedAt: '2026-05-01T10:00:00.000Z',
      finishedAt: '2026-05-01T10:02:00.000Z',
      read: [{ module: 1, title: 'Week 1' }, { module: 2, title: 'Week 2' }],
    });
    expect(compared.comparison?.fixed).toEqual([previous.findings.find((finding) => finding.url === 'https://x.example/gone')]);
    expect(compared.totals.comparison).toEqual({ new: 1, open: 3, fixed: 1, dismissed: 0 });
    expect(compared.totals.findings).toEqual({ error: 3, warning: 1, info: 0 });
  });

  it('finds nothing new and nothing fixed when nothing changed', () => {
    const findings = [broken(cells, 'https://x.example/a'), hidden(organs)];
    const compared = compareWithHistory(run(findings, { day: 2 }), { previous: asStored(run(findings)), dismissals: [] });
    expect(compared.findings.every((finding) => finding.status === 'open')).toBe(true);
    expect(compared.totals.comparison).toEqual({ new: 0, open: 2, fixed: 0, dismissed: 0 });
  });

  it('sets dismissed findings apart with who, when and why, out of every count', () => {
    const current = run([broken(cells, 'https://x.example/a'), placeholder(tissues), review(organs)], { day: 2 });
    const dismissals: Dismissal[] = [
      { fingerprint: fingerprintOf(current, 'content.placeholder', 12), by: 'qa@example.com', at: '2026-05-01T12:00:00.000Z', reason: 'The author fills this in at launch.' },
      { fingerprint: fingerprintOf(current, 'a11y.color-contrast', 21), by: 'qa@example.com', at: '2026-05-01T12:01:00.000Z' },
      // A dismissal of something this run does not find changes nothing.
      { fingerprint: '00000000000000000000', by: 'qa@example.com', at: '2026-05-01T12:02:00.000Z' },
    ];
    const compared = compareWithHistory(current, { previous: asStored(run([placeholder(tissues)])), dismissals });

    expect(compared.findings.map((finding) => finding.check)).toEqual(['link.broken']);
    expect(compared.dismissed).toEqual([
      expect.objectContaining({ check: 'content.placeholder', dismissal: { by: 'qa@example.com', at: '2026-05-01T12:00:00.000Z', reason: 'The author fills this in at launch.' } }),
      expect.objectContaining({ check: 'a11y.color-contrast', dismissal: { by: 'qa@example.com', at: '2026-05-01T12:01:00.000Z' } }),
    ]);
    expect(compared.dismissed?.every((finding) => finding.status === undefined)).toBe(true);
    expect(compared.totals.findings).toEqual({ error: 1, warning: 0, info: 0 });
    expect(compared.totals.review).toBe(0);
    // Dismissed is not fixed: the placeholder is still there.
    expect(compared.totals.comparison).toEqual({ new: 1, open: 0, fixed: 0, dismissed: 2 });
  });

  it('dismisses on the first run too, with nothing to compare', () => {
    const current = run([placeholder(tissues)]);
    const compared = compareWithHistory(current, { dismissals: [{ fingerprint: current.findings[0]!.fingerprint, by: 'qa@example.com', at: '2026-05-01T12:00:00.000Z' }] });
    expect(compared.findings).toEqual([]);
    expect(compared.dismissed).toHaveLength(1);
    expect(compared.comparison?.previous).toBeNull();
  });

  it('counts a finding restored after a dismissal as still open, not new', () => {
    const earlier = run([placeholder(tissues)]);
    const dismissedThen = compareWithHistory(earlier, { dismissals: [{ fingerprint: earlier.findings[0]!.fingerprint, by: 'qa@example.com', at: '2026-05-01T12:00:00.000Z' }] });
    const compared = compareWithHistory(run([placeholder(tissues)], { day: 2 }), { previous: asStored(dismissedThen), dismissals: [] });
    expect(compared.findings[0]?.status).toBe('open');
    // ... and one that was dismissed then and is gone now was never counted, so it is not "fixed".
    const gone = compareWithHistory(run([], { day: 2 }), { previous: asStored(dismissedThen), dismissals: [] });
    expect(gone.comparison?.fixed).toEqual([]);
  });

  it('compares only where both runs looked, and calls a finding in a place read for the first time new', () => {
    // The previous run tested Week 1 only; this one tests Week 2 only, then both.
    const previous = run([broken(cells, 'https://x.example/a')], { modules: [week1] });
    const onlyWeek2 = compareWithHistory(run([hidden(organs)], { modules: [week2], day: 2 }), { previous: asStored(previous), dismissals: [] });
    expect(onlyWeek2.comparison?.fixed).toEqual([]);
    expect(onlyWeek2.findings[0]?.status).toBe('new');
    expect(onlyWeek2.totals.comparison).toEqual({ new: 1, open: 0, fixed: 0, dismissed: 0 });
    expect(onlyWeek2.comparison).toMatchObject({ compared: [], firstRead: [{ module: 2, title: 'Week 2' }] });

    const both = compareWithHistory(run([hidden(organs), placeholder(cells)], { day: 2 }), { previous: asStored(previous), dismissals: [] });
    expect(both.findings.map((finding) => `${finding.check} ${finding.status}`)).toEqual(['content.placeholder new', 'structure.hidden new']);
    expect(both.comparison?.fixed.map((finding) => finding.check)).toEqual(['link.broken']);
    expect(both.comparison?.compared).toEqual([{ place: { module: 1, title: 'Week 1' }, run: { startedAt: '2026-05-01T10:00:00.000Z', finishedAt: '2026-05-01T10:02:00.000Z' } }]);
  });

  it('calls nothing fixed in an item this run could not read, and nothing new in one the previous run could not', () => {
    const unreadable = (place: ItemPlace): NotScanned => ({ ...place, title: 'Cells', reason: msg('reason.a11y.failed') });
    const previous = run([broken(cells, 'https://x.example/a')], { notScanned: [unreadable(tissues)] });
    const compared = compareWithHistory(run([placeholder(tissues)], { notScanned: [unreadable(cells)], day: 2 }), { previous: asStored(previous), dismissals: [] });
    expect(compared.comparison?.fixed).toEqual([]);
    expect(compared.findings[0]?.status).toBe('new');
    // What it could not read is carried: read again later, the same link is still open, not new.
    expect(compared.comparison?.carried.findings.map((finding) => finding.url)).toEqual(['https://x.example/a']);
    const again = compareWithHistory(run([broken(cells, 'https://x.example/a'), placeholder(tissues)], { day: 3 }), { previous: asStored(compared), dismissals: [] });
    expect(again.findings.map((finding) => `${finding.check} ${finding.status}`)).toEqual(['link.broken open', 'content.placeholder open']);
  });

  it('compares course-wide items only when both runs read their part of the course', () => {
    const quizFinding: Finding = { ...placeholder(quiz) };
    const previous = run([quizFinding], { scopes: ['quizzes'] });
    expect(compareWithHistory(run([], { day: 2 }), { previous: asStored(previous), dismissals: [] }).comparison?.fixed).toEqual([]);
    expect(compareWithHistory(run([], { scopes: ['quizzes'], day: 2 }), { previous: asStored(previous), dismissals: [] }).comparison?.fixed).toHaveLength(1);
    const module = compareWithHistory(run([hidden(modulePlace(week2))], { scopes: ['quizzes'], day: 2 }), { previous: asStored(run([])), dismissals: [] });
    expect(module.findings[0]?.status).toBe('new');
  });

  it('takes a previous report it cannot read as no previous run, and skips findings it cannot read', () => {
    for (const damaged of [null, 'text', { findings: 'none' }, { modules: [], findings: [] }]) {
      const compared = compareWithHistory(run([placeholder(cells)]), { previous: { filename: 'x', report: damaged }, dismissals: [] });
      expect(compared.comparison?.previous).toBeNull();
      expect(compared.findings[0]?.status).toBeUndefined();
    }
    const stored = asStored(run([placeholder(cells), broken(cells, 'https://x.example/a')])) as { filename: string; report: { findings: Record<string, unknown>[] } };
    stored.report.findings[0]!.severity = 'fatal';
    stored.report.findings[1]!.message = '<b>kept as text</b>';
    const compared = compareWithHistory(run([], { day: 2 }), { previous: stored, dismissals: [] });
    expect(compared.comparison?.fixed.map((finding) => finding.check)).toEqual(['link.broken']);
  });

  describe('a partial run between two whole-course runs', () => {
    const course = itemPlace('course', 6606, 'Biology 101');
    const weights: Finding = { check: 'grades.weights-not-100', severity: 'warning', ...course, url: null, message: msg('finding.structure.topic-hidden'), subject: 'weights' };
    const overviewPlaceholder: Finding = { ...placeholder(course), subject: 'overview' };
    const missingGrade: Finding = { check: 'grades.missing-item', severity: 'error', ...itemPlace('quiz', 902, 'Quiz 2', topicPlace(week2, { TopicId: 21, Title: 'Organs' })), url: null, message: msg('finding.structure.topic-hidden'), subject: 'grade' };
    const all: CourseScope[] = ['overview', 'gradebook'];
    const whole = run([broken(cells, 'https://x.example/a'), hidden(organs), missingGrade, weights, overviewPlaceholder], { scopes: all });
    const first = compareWithHistory(whole, { dismissals: [] });
    const oneModule = compareWithHistory(run([hidden(organs)], { modules: [week2], day: 2 }), { previous: asStored(first), dismissals: [] });

    it('writes the course-wide part that read each course-level finding', () => {
      expect(whole.findings.map((finding) => `${finding.check} ${finding.scope}`)).toEqual([
        'link.broken undefined',
        'grades.missing-item gradebook',
        'structure.hidden undefined',
        'content.placeholder overview',
        'grades.weights-not-100 gradebook',
      ]);
    });

    it('calls nothing fixed that the one-module run did not read, and gives every finding a status', () => {
      // The gradebook and the overview were not read; Week 2's grade finding needs the gradebook too.
      expect(oneModule.comparison?.fixed).toEqual([]);
      expect(oneModule.findings.map((finding) => finding.status)).toEqual(['open']);
      expect(oneModule.totals.comparison).toEqual({ new: 0, open: 1, fixed: 0, dismissed: 0 });
      expect(oneModule.comparison?.compared.map((entry) => entry.place)).toEqual([{ module: 2, title: 'Week 2' }]);
      expect(oneModule.comparison?.previous?.read).toEqual([{ module: 1, title: 'Week 1' }, { module: 2, title: 'Week 2' }, { scope: 'overview' }, { scope: 'gradebook' }]);
    });

    it('carries what it did not read to the next run, which compares it with the last run that read it', () => {
      expect(oneModule.comparison?.carried.places.map((entry) => entry.place)).toEqual([{ module: 1, title: 'Week 1' }, { scope: 'overview' }, { scope: 'gradebook' }]);
      expect(oneModule.comparison?.carried.findings.map((finding) => finding.check)).toEqual(['link.broken', 'grades.missing-item', 'content.placeholder', 'grades.weights-not-100']);
      // The next whole run: the course-wide findings and Week 1's are still open, not new; the one gone is fixed.
      const next = compareWithHistory(run([broken(cells, 'https://x.example/a'), hidden(organs), missingGrade, overviewPlaceholder], { scopes: all, day: 3 }), { previous: asStored(oneModule), dismissals: [] });
      expect(next.findings.map((finding) => `${finding.check} ${finding.status}`)).toEqual(['link.broken open', 'grades.missing-item open', 'structure.hidden open', 'content.placeholder open']);
      expect(next.comparison?.fixed.map((finding) => finding.check)).toEqual(['grades.weights-not-100']);
      expect(next.totals.comparison).toEqual({ new: 0, open: 4, fixed: 1, dismissed: 0 });
      const day1 = { startedAt: '2026-05-01T10:00:00.000Z', finishedAt: '2026-05-01T10:02:00.000Z' };
      const day2 = { startedAt: '2026-05-02T10:00:00.000Z', finishedAt: '2026-05-02T10:02:00.000Z' };
      expect(next.comparison?.compared).toEqual([
        { place: { module: 1, title: 'Week 1' }, run: day1 },
        { place: { module: 2, title: 'Week 2' }, run: day2 },
        { place: { scope: 'overview' }, run: day1 },
        { place: { scope: 'gradebook' }, run: day1 },
      ]);
      expect(next.comparison?.carried).toEqual({ places: [], findings: [], dismissed: [] });
    });

    it('reads a report written before findings had a scope', () => {
      const stored = asStored(first) as { filename: string; report: { findings: Record<string, unknown>[]; comparison?: unknown } };
      for (const finding of stored.report.findings) delete finding.scope;
      delete stored.report.comparison;
      const compared = compareWithHistory(run([hidden(organs)], { modules: [week2], day: 2 }), { previous: stored, dismissals: [] });
      expect(compared.comparison?.fixed).toEqual([]);
      expect(compared.comparison?.carried.findings.map((finding) => finding.scope)).toEqual([undefined, 'gradebook', 'overview', 'gradebook']);
    });
  });
});
