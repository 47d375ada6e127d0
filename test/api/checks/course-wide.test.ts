// Checks the whole-course reading brought: dates outside the course offering's (and date order
// and past dates on activities), Brightspace session values pasted into content, and release
// conditions on items that no longer exist; each with a case and a look-alike.
import { describe, expect, it } from 'vitest';
import { sessionTokenFindings } from '../../../api/checks/content.ts';
import { itemPlace, topicPlace } from '../../../api/brightspace/places.ts';
import { releaseConditionFindings } from '../../../api/checks/release-conditions.ts';
import { checkStructure, courseDateFindings, dateFindings } from '../../../api/checks/structure.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';
import type { TocModule } from '../../../api/brightspace/types.ts';
import { selectModules } from '../../../api/brightspace/toc.ts';

const COURSE = { start: new Date('2026-01-05T05:00:00Z'), end: new Date('2026-04-30T04:59:00Z') };
const NOW = new Date('2026-03-01T12:00:00Z');
const QUIZ = itemPlace('quiz', 31, 'Quiz 1');
const d = (iso: string) => new Date(iso);

describe('structure.date-outside-course', () => {
  it('finds a start, due or end date outside the course dates, naming each', () => {
    const findings = courseDateFindings({ start: d('2025-12-01T00:00:00Z'), due: d('2026-05-02T00:00:00Z'), end: d('2026-04-01T00:00:00Z') }, QUIZ, COURSE);
    expect(findings).toMatchObject([{ check: 'structure.date-outside-course', severity: 'warning', itemType: 'quiz', itemId: 31 }]);
    expect(formatMessage(findings[0]!.message)).toBe("This quiz opens on 2025-12-01 and is due on 2026-05-02, outside the course's own dates (2026-01-05 to 2026-04-30), when students cannot reach the course. Move the date inside the course's dates, or correct the course's dates.");
  });

  it('leaves dates inside the course alone, and a course without dates', () => {
    expect(courseDateFindings({ start: d('2026-01-05T05:00:00Z'), due: d('2026-04-30T04:00:00Z'), end: null }, QUIZ, COURSE)).toEqual([]);
    expect(courseDateFindings({ start: d('2020-01-01T00:00:00Z'), due: null, end: null }, QUIZ, { start: null, end: null })).toEqual([]);
  });

  it('says so for one open end of the course', () => {
    const [found] = courseDateFindings({ start: null, due: d('2026-06-01T00:00:00Z'), end: null }, QUIZ, { start: null, end: COURSE.end });
    expect(formatMessage(found!.message)).toContain("outside the course's own dates (until 2026-04-30)");
  });

  it('checks modules and topics of the table of contents too', () => {
    const modules: TocModule[] = [{ ModuleId: 1, Title: 'Week 1', StartDateTime: '2025-11-01T00:00:00Z', Topics: [{ TopicId: 11, Title: 'Page', DueDate: '2026-02-01T00:00:00Z' }] }];
    const findings = checkStructure(selectModules({ Modules: modules }, 'all'), NOW, COURSE).filter((f) => f.check === 'structure.date-outside-course');
    expect(findings.map((f) => [f.itemType, f.itemId])).toEqual([['module', 1]]);
  });
});

describe('structure.date-order and structure.past-date on activities', () => {
  it('words them for the activity', () => {
    const findings = dateFindings({ start: null, due: d('2026-03-20T00:00:00Z'), end: d('2026-02-10T00:00:00Z') }, itemPlace('assignment', 5, 'Essay'), NOW);
    expect(findings.map((f) => formatMessage(f.message))).toEqual([
      'This assignment is due (2026-03-20) after it closes (2026-02-10). Fix the dates in its restrictions.',
      'This assignment closed on 2026-02-10, which has already passed. Update the dates for this offering.',
    ]);
    expect(dateFindings({ start: null, due: d('2026-03-20T00:00:00Z'), end: null }, itemPlace('discussion-topic', 5, 'Intro'), NOW)).toEqual([]);
  });
});

describe('content.session-token', () => {
  const PAGE = topicPlace({ ModuleId: 1, Title: 'M' }, { TopicId: 2, Title: 'T' });

  it('finds a session value in an address, naming the parameter and never the value', () => {
    const html = '<img src="/content/enforced/5-A/x.png?_&amp;d2lSessionVal=42wcSECRET&amp;ou=5"><a href="/x?d2lSecureSessionVal=OTHER">x</a><img src="/y.png?d2lSessionVal=THIRD">';
    const findings = sessionTokenFindings(html, PAGE, 'https://school.example.com/page');
    expect(findings).toMatchObject([{ check: 'content.session-token', severity: 'error', count: 3 }]);
    const text = formatMessage(findings[0]!.message);
    expect(text).toBe('The HTML contains a Brightspace session value (d2lSecureSessionVal, d2lSessionVal, 3 times): anyone who opens this can act as the person who copied it. Remove it from the address (often an image copied from a browser tab) and sign that person out of Brightspace.');
    expect(JSON.stringify(findings)).not.toMatch(/SECRET|OTHER|THIRD/);
  });

  it('leaves text that only talks about sessions alone', () => {
    expect(sessionTokenFindings('<p>Your d2lSessionVal cookie is set when you sign in. Session values expire.</p>', PAGE, null)).toEqual([]);
  });
});

describe('structure.release-condition-missing', () => {
  const exists = (kind: string, id: number) => (kind === 'assignment' && id === 501 ? 'found' : kind === 'quiz' ? 'unknown' : 'missing') as 'found' | 'missing' | 'unknown';

  it('finds a condition on an item that no longer exists', () => {
    const findings = releaseConditionFindings([{ type: 'SubmitsToDropbox', text: 'Submitted to folder: Old lab', target: { kind: 'assignment', id: 599 } }], QUIZ, 'https://school.example.com/quiz', exists);
    expect(findings).toMatchObject([{ check: 'structure.release-condition-missing', severity: 'error', itemType: 'quiz', subject: 'assignment:599' }]);
    expect(formatMessage(findings[0]!.message)).toBe('A release condition ("Submitted to folder: Old lab") depends on assignment folder 599, which no longer exists in this course: students can never meet it, so what it releases stays hidden from them. Edit or remove the condition.');
  });

  it('leaves conditions on existing items, unread tools and no item at all alone', () => {
    expect(releaseConditionFindings([
      { type: 'SubmitsToDropbox', text: 'Submitted to folder: Lab', target: { kind: 'assignment', id: 501 } },
      { type: 'SubmitsQuizAttempt', text: 'Quiz', target: { kind: 'quiz', id: 3 } },
      { type: 'EnrolledInGroup', text: 'Group A', target: null },
    ], QUIZ, null, exists)).toEqual([]);
  });
});
