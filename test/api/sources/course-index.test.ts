// The one index of the course: topics, modules and their files from the table of contents, and the
// activities each tool's reader adds, looked up by id, by quicklink code and by address.
import { describe, expect, it } from 'vitest';
import { normalizeToc } from '../../../api/brightspace/toc.ts';
import { activityCode } from '../../../api/brightspace/valence-fields.ts';
import { CourseIndex } from '../../../api/sources/course-index.ts';

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
    expect(index.lookup({ kind: 'topic-code', code: 'bio-102' })).toMatchObject({ state: 'hidden' });
    expect(index.lookup({ kind: 'topic-code', code: 'BIO-404' })).toEqual({ state: 'missing' });
    const withoutIds = new CourseIndex(normalizeToc({ Modules: [{ ModuleId: 1, Title: 'M', Topics: [{ TopicId: 5, Title: 'T' }] }] })!);
    expect(withoutIds.lookup({ kind: 'topic-code', code: 'BIO-404' })).toEqual({ state: 'unknown' });
  });

  it("says a hidden topic's file is hidden, and leaves other files to the request", () => {
    expect(index.lookup({ kind: 'file', path: '/content/enforced/6606-BIO/draft notes.html' })).toMatchObject({ state: 'hidden', title: 'Draft notes' });
    expect(index.lookup({ kind: 'file', path: '/content/enforced/6606-BIO/welcome.html' })).toEqual({ state: 'unknown' });
    expect(index.lookup({ kind: 'file', path: '/content/enforced/6606-BIO/img/map.png' })).toEqual({ state: 'unknown' });
  });

  it('answers unknown for an activity tool until its reader adds what it read', () => {
    const own = new CourseIndex(toc);
    expect(own.lookup({ kind: 'activity', kinds: ['quiz'], id: 801 })).toEqual({ state: 'unknown' });
    own.addTool('quiz', [
      { kind: 'quiz', id: 801, code: 'BIO-Q1', title: 'Quiz 1', hidden: false, viewUrl: 'https://school.brightspace.com/q/801' },
      { kind: 'quiz', id: 802, code: null, title: 'Quiz 2', hidden: true, viewUrl: 'https://school.brightspace.com/q/802' },
    ]);
    expect(own.lookup({ kind: 'activity', kinds: ['quiz'], id: 801 })).toMatchObject({ state: 'present' });
    expect(own.lookup({ kind: 'activity', kinds: ['quiz'], code: 'bio-q1' })).toMatchObject({ state: 'present' });
    expect(own.lookup({ kind: 'activity', kinds: ['quiz'], id: 802 })).toMatchObject({ state: 'hidden', title: 'Quiz 2' });
    expect(own.lookup({ kind: 'activity', kinds: ['quiz'], id: 803 })).toEqual({ state: 'missing' });
    expect(own.lookup({ kind: 'activity', kinds: ['assignment'], id: 1 })).toEqual({ state: 'unknown' });
  });

  it('reads an rcode from an ActivityId, whatever its case', () => {
    expect(activityCode('https://ids.brightspace.com/activities/quiz/1C5D-77')).toBe('1C5D-77');
    expect(activityCode(null)).toBeNull();
    expect(index.lookup({ kind: 'topic-code', code: 'bio-111' })).toMatchObject({ state: 'present', title: 'Extra' });
  });
});

describe('one vocabulary for quicklinks and addresses', () => {
  it('finds a discussion quicklink among the topics and then the forums, and says unknown for a tool CTPO does not read', () => {
    const own = new CourseIndex(toc);
    own.addTool('discussion-topic', [{ kind: 'discussion-topic', id: 55, code: 'BIO-T55', title: 'Introductions', hidden: false, viewUrl: 'https://school.brightspace.com/t/55' }]);
    own.addTool('discussion-forum', [{ kind: 'discussion-forum', id: 5, code: null, title: 'General', hidden: true, viewUrl: 'https://school.brightspace.com/f/5' }]);
    expect(own.lookup({ kind: 'activity', kinds: ['discussion-topic', 'discussion-forum'], code: 'bio-t55' })).toMatchObject({ state: 'present', title: 'Introductions' });
    expect(own.lookup({ kind: 'activity', kinds: ['discussion-topic', 'discussion-forum'], code: 'BIO-T56' })).toEqual({ state: 'missing' });
    expect(own.activityById(['discussion-topic', 'discussion-forum'], 5)).toMatchObject({ state: 'hidden', activity: { kind: 'discussion-forum' } });
    expect(own.lookup({ kind: 'activity', kinds: [], code: 'BIO-C1' })).toEqual({ state: 'unknown' });
  });
});
