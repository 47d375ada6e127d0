import { describe, expect, it } from 'vitest';
import { normalizeToc } from '../../../api/brightspace/toc.ts';
import { topicPlace } from '../../../api/checks/finding.ts';
import { CourseIndex, internalLinkFindings, internalTargetOf, rcodeOf } from '../../../api/checks/internal-links.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';

const SITE = new URL('https://school.brightspace.com');
const OU = 6606;
const target = (path: string) => internalTargetOf(new URL(path, SITE), SITE, OU);

const toc = normalizeToc({
  Modules: [
    {
      ModuleId: 10, Title: 'Week 1', IsHidden: false,
      Topics: [
        { TopicId: 101, Title: 'Welcome', IsHidden: false, Url: '/content/enforced/6606-BIO/welcome.html', ActivityId: 'https://ids.brightspace.com/activities/contenttopic/BIO-101' },
        { TopicId: 102, Title: 'Draft notes', IsHidden: true, Url: '/content/enforced/6606-BIO/draft%20notes.html', ActivityId: 'https://ids.brightspace.com/activities/contenttopic/BIO-102' },
      ],
      Modules: [{ ModuleId: 11, Title: 'Extras', IsHidden: false, Topics: [{ TopicId: 111, Title: 'Extra', Url: '/content/enforced/6606-BIO/extra.html', ActivityId: 'https://ids.brightspace.com/activities/contenttopic/BIO-111' }] }],
    },
    {
      ModuleId: 20, Title: 'Answers (not yet)', IsHidden: true,
      Topics: [{ TopicId: 201, Title: 'Answer key', IsHidden: false, Url: '/content/enforced/6606-BIO/key.html', ActivityId: 'https://ids.brightspace.com/activities/contenttopic/BIO-201' }],
    },
  ],
})!;

describe('internalTargetOf', () => {
  it.each([
    ['/d2l/le/content/6606/viewContent/101/View', { kind: 'topic', id: 101 }],
    ['/d2l/le/content/6606/viewcontent/101/view', { kind: 'topic', id: 101 }],
    ['/d2l/le/lessons/6606/topics/101', { kind: 'topic', id: 101 }],
    ['/d2l/le/lessons/6606/units/10', { kind: 'module', id: 10 }],
    ['/d2l/le/content/6606/Home?itemIdentifier=D2L.LE.Content.ContentObject.ModuleCO-11', { kind: 'module', id: 11 }],
    ['/d2l/le/content/6606/Home?itemIdentifier=D2L.LE.Content.ContentObject.TopicCO-101', { kind: 'topic', id: 101 }],
    ['/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=quiz&rcode=BIO-77', { kind: 'activity', tool: 'quiz', rcode: 'BIO-77' }],
    ['/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=dropbox&rCode=BIO-5', { kind: 'activity', tool: 'dropbox', rcode: 'BIO-5' }],
    ['/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=content&rcode=BIO-101', { kind: 'activity', tool: 'content', rcode: 'BIO-101' }],
    ['/d2l/lms/quizzing/user/quiz_summary.d2l?qi=801&ou=6606', { kind: 'activity', tool: 'quiz', id: 801 }],
    ['/d2l/lms/dropbox/user/folder_submit_files.d2l?db=7001&grpid=0&ou=6606', { kind: 'activity', tool: 'dropbox', id: 7001 }],
    ['/d2l/le/6606/discussions/topics/55/View', { kind: 'activity', tool: 'discuss', id: 55 }],
    ['/d2l/le/6606/discussions/forums/5/view', { kind: 'activity', tool: 'discuss-forum', id: 5 }],
    ['/content/enforced/6606-BIO/welcome.html', { kind: 'file', path: '/content/enforced/6606-BIO/welcome.html' }],
  ])('reads %s', (path, expected) => {
    expect(target(path)).toEqual(expected);
  });

  it.each([
    '/d2l/le/content/7777/viewContent/101/View', // another course: link.cross-course says so
    '/d2l/common/dialogs/quickLink/quickLink.d2l?ou=7777&type=quiz&rcode=X',
    '/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=coursefile&fileId=notes.pdf', // a file: the request decides
    '/d2l/le/content/6606/Home',
    '/d2l/home/6606',
    'https://elsewhere.example.com/d2l/le/content/6606/viewContent/101/View',
  ])('leaves %s to the other checks', (path) => {
    expect(target(path)).toBeNull();
  });
});

describe('CourseIndex', () => {
  const index = new CourseIndex(toc);

  it('knows every topic and module of the course, hidden ones with their hidden modules', () => {
    expect(index.lookup({ kind: 'topic', id: 101 })).toMatchObject({ state: 'present', title: 'Welcome' });
    expect(index.lookup({ kind: 'topic', id: 111 })).toMatchObject({ state: 'present', title: 'Extra' });
    expect(index.lookup({ kind: 'topic', id: 102 })).toMatchObject({ state: 'hidden', title: 'Draft notes' });
    expect(index.lookup({ kind: 'topic', id: 201 })).toMatchObject({ state: 'hidden', title: 'Answer key' });
    expect(index.lookup({ kind: 'module', id: 20 })).toMatchObject({ state: 'hidden' });
    expect(index.lookup({ kind: 'topic', id: 999 })).toEqual({ state: 'missing' });
    expect(index.lookup({ kind: 'module', id: 99 })).toEqual({ state: 'missing' });
  });

  it('finds content quicklinks by rcode when the contents give every ActivityId', () => {
    expect(index.lookup({ kind: 'activity', tool: 'content', rcode: 'bio-102' })).toMatchObject({ state: 'hidden' });
    expect(index.lookup({ kind: 'activity', tool: 'content', rcode: 'BIO-404' })).toEqual({ state: 'missing' });
    const withoutIds = new CourseIndex(normalizeToc({ Modules: [{ ModuleId: 1, Title: 'M', Topics: [{ TopicId: 5, Title: 'T' }] }] })!);
    expect(withoutIds.lookup({ kind: 'activity', tool: 'content', rcode: 'BIO-404' })).toEqual({ state: 'unknown' });
  });

  it("says a hidden topic's file is hidden, and leaves other files to the request", () => {
    expect(index.lookup({ kind: 'file', path: '/content/enforced/6606-BIO/draft notes.html' })).toMatchObject({ state: 'hidden', title: 'Draft notes' });
    expect(index.lookup({ kind: 'file', path: '/content/enforced/6606-BIO/welcome.html' })).toEqual({ state: 'unknown' });
    expect(index.lookup({ kind: 'file', path: '/content/enforced/6606-BIO/img/map.png' })).toEqual({ state: 'unknown' });
  });

  it('answers unknown for an activity tool until its reader adds what it read', () => {
    const own = new CourseIndex(toc);
    expect(own.lookup({ kind: 'activity', tool: 'quiz', id: 801 })).toEqual({ state: 'unknown' });
    own.addActivities('quiz', [{ id: 801, rcode: 'BIO-Q1', title: 'Quiz 1', hidden: false }, { id: 802, title: 'Quiz 2', hidden: true }]);
    expect(own.lookup({ kind: 'activity', tool: 'quiz', id: 801 })).toMatchObject({ state: 'present' });
    expect(own.lookup({ kind: 'activity', tool: 'quiz', rcode: 'bio-q1' })).toMatchObject({ state: 'present' });
    expect(own.lookup({ kind: 'activity', tool: 'quiz', id: 802 })).toMatchObject({ state: 'hidden', title: 'Quiz 2' });
    expect(own.lookup({ kind: 'activity', tool: 'quiz', id: 803 })).toEqual({ state: 'missing' });
    expect(own.lookup({ kind: 'activity', tool: 'dropbox', id: 1 })).toEqual({ state: 'unknown' });
  });

  it('reads an rcode from an ActivityId', () => {
    expect(rcodeOf('https://ids.brightspace.com/activities/quiz/1C5D-77')).toBe('1c5d-77');
    expect(rcodeOf(null)).toBeUndefined();
  });
});

describe('internalLinkFindings', () => {
  const place = topicPlace({ ModuleId: 10, Title: 'Week 1' }, { TopicId: 101, Title: 'Welcome' });
  const link = { raw: '/x', url: 'https://school.brightspace.com/x', element: 'a href', embedded: false, text: 'Notes' };

  it('an error for a missing target, a warning for a hidden one, nothing for one students can open', () => {
    const [missing] = internalLinkFindings(link, { kind: 'activity', tool: 'quiz', id: 1 }, 'missing', undefined, place);
    expect(missing).toMatchObject({ check: 'link.internal-missing', severity: 'error', linkText: 'Notes', element: 'a href' });
    expect(formatMessage(missing!.message)).toBe("This link opens a quiz that does not exist in this course, so students get an error page. Point it at the item's current address.");
    const [hidden] = internalLinkFindings(link, { kind: 'topic', id: 102 }, 'hidden', 'Draft notes', place);
    expect(hidden).toMatchObject({ check: 'link.internal-hidden', severity: 'warning' });
    expect(formatMessage(hidden!.message)).toContain('"Draft notes", which is hidden from students');
    expect(internalLinkFindings(link, { kind: 'topic', id: 101 }, 'present', 'Welcome', place)).toEqual([]);
  });
});
