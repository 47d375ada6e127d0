// A report with one of everything a writer must show: nested modules, clean topics, a topic and a
// module-level item not scanned, a link broken on three topics (listed once, as repeated), an axe
// finding with its element's HTML, a quiz behind a quicklink, course-wide items, and course text
// that tries to be markup or a spreadsheet formula.
import type { SelectedModule } from '../../../../api/brightspace/toc.ts';
import { type Finding, type NotScanned } from '../../../../api/checks/finding.ts';
import { itemPlace, modulePlace, topicPlace } from '../../../../api/brightspace/places.ts';
import type { Language } from '../../../../api/i18n/languages.ts';
import { msg } from '../../../../api/i18n/messages.ts';
import { buildReport } from '../../../../api/report/build-report.ts';
import type { Report } from '../../../../api/report/model.ts';

const week1 = { ModuleId: 1, Title: 'Week <1>' };
const week2 = { ModuleId: 2, Title: 'Week 2 & more' };
const project = { ModuleId: 3, Title: 'Project' };

export const SELECTED: SelectedModule[] = [
  {
    module: week1,
    depth: 0,
    parentModuleId: null,
    topics: [
      { TopicId: 11, Title: '<script>alert("topic")</script>' },
      { TopicId: 12, Title: 'Clean page' },
      { TopicId: 13, Title: 'Marks (XLSX)' },
    ],
    children: [week2],
  },
  {
    module: week2,
    depth: 1,
    parentModuleId: 1,
    topics: [
      { TopicId: 21, Title: 'Reading list' },
      { TopicId: 22, Title: 'Also clean' },
    ],
    children: [],
  },
  { module: project, depth: 0, parentModuleId: null, topics: [{ TopicId: 31, Title: 'Brief' }, { TopicId: 32, Title: 'Week 1 quiz' }], children: [] },
];

const topic = (module: { ModuleId: number; Title: string }, id: number, title: string) => topicPlace(module, { TopicId: id, Title: title });
const pageOf = (id: number) => `https://school.example.com/content/enforced/6606-BIO/topic-${id}.html`;
const DEAD = 'https://example.com/gone/syllabus';

export const FINDINGS: Finding[] = [
  { check: 'structure.date-order', severity: 'error', ...modulePlace(week1), url: null, message: msg('finding.structure.date-order', { kind: 'module', problems: msg('finding.structure.ends-before-start', { end: '2026-03-01', start: '2026-03-08' }) }) },
  { check: 'link.broken', severity: 'error', ...topic(week1, 11, '<script>alert("topic")</script>'), url: 'javascript:alert(1)', message: msg('finding.link.invalid-address', { address: 'Bad <img src=x onerror=alert(1)> link' }), element: 'a href', linkText: '=HYPERLINK("https://evil.example","Click")', subject: 'javascript:alert(1)' },
  { check: 'a11y.image-alt', severity: 'error', ...topic(week1, 11, '<script>alert("topic")</script>'), url: pageOf(11), message: msg('finding.a11y.axe', { help: 'Images must have alternative text', count: 2 }), element: '<img src="https://school.example.com/img/cell-diagram.png">', selector: '#content > p:nth-child(2) > img', count: 2, subject: 'image-alt', helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt' },
  { check: 'link.redirect', severity: 'info', ...topic(week1, 11, '<script>alert("topic")</script>'), url: 'https://example.com/old', message: msg('finding.link.moved', { to: 'https://example.com/new' }), element: 'img srcset', linkText: 'Map <of> "campus"', count: 3, subject: 'https://example.com/old' },
  // The same broken link on three topics: listed once under Repeated problems.
  ...[topic(week1, 11, '<script>alert("topic")</script>'), topic(week2, 21, 'Reading list'), topic(project, 31, 'Brief')].map(
    (place): Finding => ({ check: 'link.broken', severity: 'error', ...place, url: DEAD, message: msg('finding.link.not-found', { status: 404 }), element: 'a href', linkText: 'Course syllabus', subject: DEAD }),
  ),
  { check: 'content.placeholder', severity: 'error', ...topic(week2, 21, 'Reading list'), url: pageOf(21), message: msg('finding.content.placeholder', { examples: '"@SUM(A1:A9)", "TBD"' }), count: 2 },
  { check: 'structure.hidden', severity: 'warning', ...topic(project, 31, 'Brief'), url: null, message: msg('finding.structure.topic-hidden') },
  { check: 'link.cross-course', severity: 'error', ...itemPlace('quiz', 77, 'Quiz 1', topic(project, 32, 'Week 1 quiz')), url: 'https://school.example.com/d2l/lms/quizzing/quiz.d2l?ou=5120&qi=77', message: msg('finding.link.topic-cross-course', { orgUnitId: '5120' }), element: 'topic', subject: 'quiz-77' },
  { check: 'link.unverifiable', severity: 'info', ...itemPlace('announcement', 501, '-Welcome back'), url: 'https://journals.example.org/archive', message: msg('finding.link.refuses-checks', { status: 403 }), element: 'a href', linkText: '+Journal archive', review: true },
];

export const NOT_SCANNED: NotScanned[] = [
  { ...topic(week1, 13, 'Marks (XLSX)'), title: 'Marks (XLSX)', reason: msg('reason.topic.other-file', { type: 'XLSX' }), url: 'https://school.example.com/content/enforced/6606-BIO/marks.xlsx' },
  { ...modulePlace(project), itemType: 'assignment', itemId: 900, itemTitle: 'Final essay', title: 'Final essay', reason: msg('reason.activity.assignment') },
  { ...itemPlace('grade-item', 44, 'Participation'), title: 'Participation', reason: msg('reason.activity.survey') },
];

export function sampleReport(language?: Language): Report {
  return buildReport({
    client: 'Acme "Learning"',
    siteUrl: 'https://school.example.com/',
    orgUnitId: 6606,
    courseName: 'Biology <101>',
    ...(language === undefined ? {} : { language }),
    scopes: ['announcements', 'gradebook'],
    selected: SELECTED,
    viewUrl: (topicId) => `https://school.example.com/d2l/le/content/6606/viewContent/${topicId}/View`,
    findings: FINDINGS,
    notScanned: NOT_SCANNED,
    scanned: 6,
    links: 7,
    linksNotCheckable: 2,
    startedAt: new Date('2026-03-01T10:00:00Z'),
    finishedAt: new Date('2026-03-01T10:02:05Z'),
  });
}
