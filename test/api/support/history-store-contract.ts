// The promises of the history side of the stores (api/jobs/types.ts: JobHistory, DismissalStore),
// run against each implementation: a user's runs newest first in pages, only their own; the run a
// new report compares itself with; and dismissals per user and course that stay until restored or
// expired, within limits that a burst of requests cannot pass.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DISMISSAL_KEEP_DAYS, type CourseKey, type DismissalStore, type JobHistory, type JobRecord, type JobStore } from '../../../api/jobs/types.ts';
import { aJob } from './job-record.ts';

export interface OpenedHistory {
  jobs: JobStore & JobHistory;
  dismissals: DismissalStore;
  close(): void;
}

const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 10, minute)).toISOString();

async function allPages(history: JobHistory, owner: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let after: Awaited<ReturnType<JobHistory['listByOwner']>>['next'];
  do {
    const page = await history.listByOwner(owner, { limit, ...(after === undefined ? {} : { after }) });
    pages.push(page.jobs.map((job) => job.id));
    after = page.next;
  } while (after !== undefined && pages.length < 50);
  return pages;
}

/** The stores' "now": a month after the contract's dismissals were made. */
const clock = { now: new Date(Date.UTC(2026, 5, 1)) };

export function describeHistoryStoreContract(name: string, open: (now: () => Date) => OpenedHistory | Promise<OpenedHistory>): void {
  describe(`${name}: the history contract`, () => {
    let opened: OpenedHistory;
    let jobs: JobStore & JobHistory;
    let dismissals: DismissalStore;

    beforeEach(async () => {
      clock.now = new Date(Date.UTC(2026, 5, 1));
      opened = await open(() => clock.now);
      jobs = opened.jobs;
      dismissals = opened.dismissals;
    });
    afterEach(() => opened.close());

    describe('an owner’s runs', () => {
      it('lists only the owner’s jobs, newest first, as they are recorded', async () => {
        await jobs.create(aJob('a1', { createdAt: at(1) }));
        await jobs.create(aJob('b1', { owner: 'user-b', createdAt: at(2) }));
        await jobs.create(aJob('a2', { createdAt: at(3), status: 'RUNNING', progress: { done: 1, total: 4, phase: 'topics' } }));
        await jobs.create(aJob('a3', { createdAt: at(5), status: 'SUCCEEDED', courseName: 'Biology 101', scopes: ['quizzes'] }));

        const page = await jobs.listByOwner('user-a', { limit: 10 });
        expect(page.jobs.map((job) => job.id)).toEqual(['a3', 'a2', 'a1']);
        expect(page.next).toBeUndefined();
        expect(page.jobs[0]).toEqual(aJob('a3', { createdAt: at(5), status: 'SUCCEEDED', courseName: 'Biology 101', scopes: ['quizzes'] }));
        expect((await jobs.listByOwner('user-b', { limit: 10 })).jobs.map((job) => job.id)).toEqual(['b1']);
        expect(await jobs.listByOwner('user-c', { limit: 10 })).toEqual({ jobs: [] });
      });

      it('pages with a cursor, every job once, none of another owner in between', async () => {
        for (let index = 0; index < 7; index++) {
          await jobs.create(aJob(`a${index}`, { createdAt: at(index) }));
          await jobs.create(aJob(`b${index}`, { owner: 'user-b', createdAt: at(index) }));
        }
        expect(await allPages(jobs, 'user-a', 3)).toEqual([['a6', 'a5', 'a4'], ['a3', 'a2', 'a1'], ['a0']]);
        // A page that ends exactly at the last job says so.
        const exact = await jobs.listByOwner('user-b', { limit: 7 });
        expect(exact.jobs).toHaveLength(7);
        expect(exact.next).toBeUndefined();
        // A cursor taken from one owner's page does not reach into another's jobs.
        const first = await jobs.listByOwner('user-a', { limit: 2 });
        const other = await jobs.listByOwner('user-b', { limit: 10, after: first.next! });
        expect(other.jobs.every((job) => job.owner === 'user-b')).toBe(true);
      });

      it('pages through jobs started in the same millisecond without losing or repeating one', async () => {
        const ids = ['t-c', 't-a', 't-e', 't-b', 't-d'];
        for (const id of ids) await jobs.create(aJob(id, { createdAt: at(0) }));
        const pages = await allPages(jobs, 'user-a', 2);
        expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
        expect(pages.flat().sort()).toEqual([...ids].sort());
      });

      it('shows a job’s progress as it moves, and its summary once it has succeeded', async () => {
        await jobs.create(aJob('a1'));
        await jobs.update('a1', { status: 'RUNNING', progress: { done: 2, total: 5, phase: 'topics' } });
        expect((await jobs.listByOwner('user-a', { limit: 1 })).jobs[0]).toMatchObject({ status: 'RUNNING', progress: { done: 2, total: 5 } });
        const summary = { findings: { error: 2, warning: 1, info: 0, review: 0 }, topics: 5, scanned: 5, notScanned: 0, documents: 0, links: 9, comparison: { new: 1, fixed: 2, dismissed: 1 } };
        await jobs.update('a1', { status: 'SUCCEEDED', courseName: 'Biology 101', summary });
        expect((await jobs.listByOwner('user-a', { limit: 1 })).jobs[0]).toMatchObject({ status: 'SUCCEEDED', courseName: 'Biology 101', summary });
      });
    });

    describe('the run a new report compares itself with', () => {
      const course = { siteUrl: 'https://acme.brightspace.com', orgUnitId: 6606 };
      const current = (overrides: Partial<JobRecord> = {}) => aJob('now', { ...course, createdAt: at(30), status: 'RUNNING', ...overrides });

      it('is the owner’s latest successful run of the same course started before this one', async () => {
        await jobs.create(aJob('old', { ...course, createdAt: at(1), status: 'SUCCEEDED' }));
        await jobs.create(aJob('latest', { ...course, createdAt: at(5), status: 'SUCCEEDED' }));
        await jobs.create(aJob('failed', { ...course, createdAt: at(8), status: 'FAILED', reason: 'Sign-in failed.' }));
        await jobs.create(aJob('unfinished', { ...course, createdAt: at(9), status: 'RUNNING' }));
        await jobs.create(aJob('other-course', { ...course, orgUnitId: 7707, createdAt: at(10), status: 'SUCCEEDED' }));
        await jobs.create(aJob('other-site', { ...course, siteUrl: 'https://other.brightspace.com', createdAt: at(11), status: 'SUCCEEDED' }));
        await jobs.create(aJob('other-owner', { ...course, owner: 'user-b', createdAt: at(12), status: 'SUCCEEDED' }));
        await jobs.create(aJob('later', { ...course, createdAt: at(40), status: 'SUCCEEDED' }));
        await jobs.create(current());
        expect((await jobs.previousSucceeded(current()))?.id).toBe('latest');
      });

      it('is nothing for the first run of a course, and never the run itself', async () => {
        await jobs.create(current());
        expect(await jobs.previousSucceeded(current())).toBeUndefined();
        await jobs.update('now', { status: 'SUCCEEDED' });
        expect(await jobs.previousSucceeded(current({ status: 'SUCCEEDED' }))).toBeUndefined();
        await jobs.create(aJob('other-owner', { ...course, owner: 'user-b', createdAt: at(1), status: 'SUCCEEDED' }));
        expect(await jobs.previousSucceeded(current())).toBeUndefined();
      });

      it('finds the run among many of the owner’s other runs', async () => {
        await jobs.create(aJob('wanted', { ...course, createdAt: at(0), status: 'SUCCEEDED' }));
        for (let index = 1; index < 25; index++) {
          await jobs.create(aJob(`x${index}`, { ...course, orgUnitId: 8000 + index, createdAt: at(index), status: 'SUCCEEDED' }));
        }
        expect((await jobs.previousSucceeded(current()))?.id).toBe('wanted');
      });
    });

    describe('dismissals', () => {
      const biology: CourseKey = { siteUrl: 'https://acme.brightspace.com', orgUnitId: 6606 };
      const chemistry: CourseKey = { siteUrl: 'https://acme.brightspace.com', orgUnitId: 7707 };
      const elsewhere: CourseKey = { siteUrl: 'https://other.brightspace.com', orgUnitId: 6606 };
      const dismissal = (fingerprint: string, minute: number, reason?: string) => ({
        fingerprint,
        by: 'qa@example.com',
        at: at(minute),
        ...(reason === undefined ? {} : { reason }),
      });

      it('keeps each user’s dismissals per course, oldest first', async () => {
        await dismissals.put('user-a', biology, dismissal('f2', 2));
        await dismissals.put('user-a', biology, dismissal('f1', 1, 'The vendor fixes this link in June.'));
        await dismissals.put('user-a', chemistry, dismissal('f3', 3));
        await dismissals.put('user-b', biology, dismissal('f4', 4));
        await dismissals.put('user-a', elsewhere, dismissal('f5', 5));

        expect(await dismissals.list('user-a', biology)).toEqual([dismissal('f1', 1, 'The vendor fixes this link in June.'), dismissal('f2', 2)]);
        expect(await dismissals.list('user-a', chemistry)).toEqual([dismissal('f3', 3)]);
        expect(await dismissals.list('user-b', biology)).toEqual([dismissal('f4', 4)]);
        expect(await dismissals.list('user-a', elsewhere)).toEqual([dismissal('f5', 5)]);
        expect(await dismissals.list('user-c', biology)).toEqual([]);
      });

      it('replaces a dismissal of the same finding (a new reason), and restores one once', async () => {
        await dismissals.put('user-a', biology, dismissal('f1', 1, 'first'));
        await dismissals.put('user-a', biology, dismissal('f1', 6, 'second'));
        expect(await dismissals.list('user-a', biology)).toEqual([dismissal('f1', 6, 'second')]);
        await dismissals.put('user-a', biology, dismissal('f1', 7));
        expect(await dismissals.list('user-a', biology)).toEqual([dismissal('f1', 7)]);

        expect(await dismissals.remove('user-b', biology, 'f1')).toBe(false);
        expect(await dismissals.remove('user-a', chemistry, 'f1')).toBe(false);
        expect(await dismissals.list('user-a', biology)).toHaveLength(1);
        expect(await dismissals.remove('user-a', biology, 'f1')).toBe(true);
        expect(await dismissals.remove('user-a', biology, 'f1')).toBe(false);
        expect(await dismissals.list('user-a', biology)).toEqual([]);
      });

      const fingerprint = (n: number) => n.toString(16).padStart(20, '0');

      it('keeps at most the limit of a course under a burst, and takes a new reason for one kept', async () => {
        const limits = { perCourse: 5, courses: 10 };
        const outcomes = await Promise.all(Array.from({ length: 30 }, (_, n) => dismissals.put('user-a', biology, dismissal(fingerprint(n), n % 60), limits)));
        expect(outcomes.filter((outcome) => outcome === 'kept')).toHaveLength(5);
        expect(outcomes.filter((outcome) => outcome === 'course-full')).toHaveLength(25);
        const kept = await dismissals.list('user-a', biology);
        expect(kept).toHaveLength(5);
        expect(await dismissals.put('user-a', biology, dismissal(kept[0]!.fingerprint, 59, 'a new reason'), limits)).toBe('kept');
        expect(await dismissals.put('user-a', biology, dismissal(fingerprint(99), 59), limits)).toBe('course-full');
        // Restoring one frees its place; another user's course is its own.
        expect(await dismissals.remove('user-a', biology, kept[1]!.fingerprint)).toBe(true);
        expect(await dismissals.put('user-a', biology, dismissal(fingerprint(99), 59), limits)).toBe('kept');
        expect(await dismissals.put('user-b', biology, dismissal(fingerprint(1), 1), limits)).toBe('kept');
        expect(await dismissals.list('user-a', biology)).toHaveLength(5);
      });

      it('keeps dismissals in at most the limit of courses under a burst, and frees a course once its last one is restored', async () => {
        const limits = { perCourse: 5, courses: 2 };
        const courses = Array.from({ length: 8 }, (_, n): CourseKey => ({ siteUrl: 'https://acme.brightspace.com', orgUnitId: 100 + n }));
        const outcomes = await Promise.all(courses.flatMap((course, n) => [1, 2].map((k) => dismissals.put('user-a', course, dismissal(fingerprint(n * 10 + k), n), limits))));
        expect(outcomes.filter((outcome) => outcome === 'too-many-courses').length).toBeGreaterThan(0);
        const withAny: CourseKey[] = [];
        for (const course of courses) if ((await dismissals.list('user-a', course)).length > 0) withAny.push(course);
        expect(withAny.length).toBeLessThanOrEqual(2);
        expect(withAny.length).toBeGreaterThan(0);
        const other = courses.find((course) => !withAny.includes(course))!;
        while (withAny.length < 2) {
          const next = courses.find((course) => !withAny.includes(course) && course !== other)!;
          expect(await dismissals.put('user-a', next, dismissal(fingerprint(500 + withAny.length), 5), limits)).toBe('kept');
          withAny.push(next);
        }
        expect(await dismissals.put('user-a', other, dismissal(fingerprint(900), 9), limits)).toBe('too-many-courses');
        for (const { fingerprint: kept } of await dismissals.list('user-a', withAny[0]!)) expect(await dismissals.remove('user-a', withAny[0]!, kept)).toBe(true);
        expect(await dismissals.put('user-a', other, dismissal(fingerprint(900), 9), limits)).toBe('kept');
      });

      it('forgets a dismissal once it has expired, and counts it no more', async () => {
        const limits = { perCourse: 2, courses: 10 };
        await dismissals.put('user-a', biology, dismissal(fingerprint(1), 1), limits);
        await dismissals.put('user-a', biology, dismissal(fingerprint(2), 2), limits);
        clock.now = new Date(Date.UTC(2026, 4, 1, 10, 1) + DISMISSAL_KEEP_DAYS * 86_400_000 + 30_000);
        expect(await dismissals.list('user-a', biology)).toEqual([dismissal(fingerprint(2), 2)]);
        expect(await dismissals.put('user-a', biology, dismissal(fingerprint(3), 3), limits)).toBe('kept');
        expect((await dismissals.list('user-a', biology)).map((kept) => kept.fingerprint)).toEqual([fingerprint(2), fingerprint(3)]);
      });
    });
  });
}
