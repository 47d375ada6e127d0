// The items and notes a whole-course run adds to the report: items in report order (those a
// quicklink opens under their topic, course-wide ones after the modules), each course-wide heading
// linked to the item's page in Brightspace, the run's notes, and both in the JSON twin.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { itemPlace, topicPlace } from '../../../api/brightspace/places.ts';
import { msg } from '../../../api/i18n/messages.ts';
import { buildReport } from '../../../api/report/build-report.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { SELECTED } from './support/sample-report.ts';

const project = { ModuleId: 3, Title: 'Project' };
const quiz = itemPlace('quiz', 31, 'Quiz <one>', topicPlace(project, { TopicId: 32, Title: 'Week 1 quiz' }));
const announcement = itemPlace('announcement', 41, 'Welcome & <b>hello</b>');
const course = itemPlace('course', 6606, 'Biology <101>');

const report = buildReport({
  client: 'Acme',
  siteUrl: 'https://school.example.com/',
  orgUnitId: 6606,
  selected: SELECTED,
  viewUrl: (topicId) => `https://school.example.com/d2l/le/content/6606/viewContent/${topicId}/View`,
  findings: [
    { check: 'grades.weights-not-100', severity: 'error', ...course, url: null, message: msg('finding.grades.unassociated-item') },
    { check: 'structure.past-date', severity: 'warning', ...announcement, url: null, message: msg('finding.structure.topic-hidden') },
    { check: 'structure.date-order', severity: 'error', ...quiz, url: null, message: msg('finding.structure.empty-module') },
  ],
  notScanned: [],
  courseItems: [
    { place: course, viewUrl: 'https://school.example.com/d2l/home/6606' },
    { place: announcement, viewUrl: 'javascript:alert(1)' },
    { place: itemPlace('assignment', 51, 'Clean essay'), viewUrl: 'https://school.example.com/d2l/lms/dropbox/user/folder_submit_files.d2l?db=51&ou=6606' },
    { place: quiz, viewUrl: 'https://school.example.com/d2l/lms/quizzing/user/quiz_summary.d2l?qi=31&ou=6606' },
  ],
  runNotes: [msg('note.route.not-offered', { what: 'quizzes', status: 404 })],
  scanned: 3,
  links: 0,
  startedAt: new Date('2026-03-01T10:00:00Z'),
  finishedAt: new Date('2026-03-01T10:02:05Z'),
});
const html = renderHtmlReport(report);
const document = new JSDOM(html).window.document;

describe('course items and notes in the report', () => {
  it('lists the items in report order: those a topic opens first, course-wide ones after the modules', () => {
    expect(report.items.map((item) => `${item.moduleId ?? '-'} ${item.itemType}:${item.itemId}`)).toEqual(['3 quiz:31', '- announcement:41', '- assignment:51', '- course:6606']);
    expect(report.findings.map((f) => `${f.moduleId ?? '-'} ${f.itemType}`)).toEqual(['3 quiz', '- announcement', '- course']);
    expect(report.notes).toEqual([{ message: 'This site does not offer quizzes through its API (HTTP 404): an older Brightspace version, or a tool turned off. They were not checked.' }]);
  });

  it('links each course-wide heading to the item page, escaped, and leaves an address that is not a web page as text', () => {
    // Course text is isolated for right-to-left reports; the marks are not part of what is compared.
    const links = [...document.querySelectorAll('#course-wide h3')].map((heading) => [heading.textContent?.replace(/[\u2068\u2069]/g, ''), heading.querySelector('a')?.getAttribute('href') ?? null]);
    expect(links).toEqual([
      ['Announcement: Welcome & <b>hello</b>', null],
      ['Course: Biology <101>', 'https://school.example.com/d2l/home/6606'],
    ]);
    expect(html).not.toContain('javascript:alert(1)"');
  });

  it('names the activity a quicklink topic opens with its finding, under that topic', () => {
    const where = [...document.querySelectorAll('#topic-32 .finding dt')].find((term) => term.textContent === 'Where')?.nextElementSibling;
    expect(where?.textContent?.replace(/[\u2068\u2069]/g, '')).toBe('in the quiz “Quiz <one>”');
    expect(document.querySelector('#course-wide #item-quiz-31')).toBeNull();
  });

  it('shows the notes after the rest, and names them in the sections', () => {
    const sections = [...document.querySelectorAll('main > section')].map((section) => section.id || section.className);
    expect(sections.slice(-3)).toEqual(['findings', 'course-wide', 'notes']);
    expect([...document.querySelectorAll('#notes li')].map((item) => item.textContent)).toEqual([
      'This site does not offer quizzes through its API (HTTP 404): an older Brightspace version, or a tool turned off. They were not checked.',
    ]);
    expect([...document.querySelectorAll('nav.sections a')].map((link) => link.getAttribute('href'))).toContain('#notes');
  });

  it('writes items and notes to the JSON twin', () => {
    const json = JSON.parse(renderJsonReport(report)) as { items: unknown[]; notes: unknown[] };
    expect(json.items).toHaveLength(4);
    expect(json.notes).toHaveLength(1);
  });
});
