// The promises every JobStore keeps (api/jobs/types.ts), run against each implementation: the
// SQLite store locally and the DynamoDB store on AWS must behave the same to the code above them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobRecord, JobStore } from '../../../api/jobs/types.ts';
import { aJob } from './job-record.ts';

export interface OpenedStore {
  store: JobStore;
  close(): void;
}

export function describeJobStoreContract(name: string, open: (now: () => Date) => OpenedStore | Promise<OpenedStore>): void {
  describe(`${name}: the job store contract`, () => {
    let opened: OpenedStore;
    let store: JobStore;
    let clock: Date;

    beforeEach(async () => {
      clock = new Date('2026-05-01T10:00:05.000Z');
      opened = await open(() => clock);
      store = opened.store;
    });
    afterEach(() => opened.close());

    it('keeps a job as written and reads it back', async () => {
      await store.create(aJob('j1'));
      expect(await store.get('j1')).toEqual(aJob('j1'));
      expect(await store.get('nope')).toBeUndefined();
    });

    it('keeps a run’s exact choice and its user name: sub-modules left out, titles, course-wide items alone', async () => {
      const chosen = aJob('chosen', { modules: [1, 2], excludeModules: [12, 13], moduleTitles: { 1: 'Unit 1', 12: 'Lab 1.2' }, scopes: ['quizzes'], userName: 'qa.tester' });
      await store.create(chosen);
      expect(await store.get('chosen')).toEqual(chosen);
      const courseWide = aJob('course-wide', { modules: [], scopes: ['announcements', 'gradebook'] });
      await store.create(courseWide);
      expect(await store.get('course-wide')).toEqual(courseWide);
      // A later patch leaves the choice as it was.
      await store.update('chosen', { status: 'SUCCEEDED', courseName: 'Biology' });
      expect(await store.get('chosen')).toMatchObject({ modules: [1, 2], excludeModules: [12, 13], moduleTitles: { 1: 'Unit 1', 12: 'Lab 1.2' }, userName: 'qa.tester' });
    });

    it('keeps whether a run was asked to check everything again', async () => {
      await store.create(aJob('full', { full: true }));
      await store.create(aJob('not-full', { full: false }));
      await store.create(aJob('unsaid'));
      expect(await store.get('full')).toEqual(aJob('full', { full: true }));
      expect(await store.get('not-full')).toEqual(aJob('not-full', { full: false }));
      expect(await store.get('unsaid')).not.toHaveProperty('full');
    });

    it('refuses a status outside the lifecycle', async () => {
      await expect(store.create(aJob('bad', { status: 'DONE' as JobRecord['status'] }))).rejects.toThrow();
      expect(await store.get('bad')).toBeUndefined();
    });

    it('applies a patch, bumps updatedAt and stamps finishedAt on a terminal status', async () => {
      await store.create(aJob('j1'));
      const running = await store.update('j1', { status: 'RUNNING', startedAt: '2026-05-01T10:00:04.000Z', progress: { done: 2, total: 9 } });
      expect(running).toMatchObject({ status: 'RUNNING', progress: { done: 2, total: 9 }, updatedAt: clock.toISOString() });
      clock = new Date('2026-05-01T10:03:00.000Z');
      const done = await store.update('j1', { status: 'SUCCEEDED' });
      expect(done).toMatchObject({ status: 'SUCCEEDED', finishedAt: '2026-05-01T10:03:00.000Z', startedAt: '2026-05-01T10:00:04.000Z' });
      expect(await store.update('nope', { status: 'RUNNING' })).toBeUndefined();
      expect(await store.get('nope')).toBeUndefined();
    });

    it('keeps the phase of the progress, and keeps the last progress when a patch carries none', async () => {
      await store.create(aJob('j1'));
      await store.update('j1', { status: 'RUNNING', progress: { done: 40, total: 300, phase: 'topics' } });
      expect(await store.get('j1')).toMatchObject({ progress: { done: 40, total: 300, phase: 'topics' } });
      await store.update('j1', { progress: { done: 12, total: 1305, phase: 'links' } });
      await store.update('j1', { status: 'DEPROVISIONING' });
      expect((await store.get('j1'))?.progress).toEqual({ done: 12, total: 1305, phase: 'links' });
      await store.update('j1', { progress: { done: 1, total: 2 } });
      expect((await store.get('j1'))?.progress).toEqual({ done: 1, total: 2 });
    });

    it('never changes a terminal job again', async () => {
      await store.create(aJob('ok'));
      await store.update('ok', { status: 'SUCCEEDED' });
      const before = await store.get('ok');
      clock = new Date('2026-05-02T00:00:00.000Z');
      expect(await store.update('ok', { status: 'FAILED', reason: 'late', progress: { done: 1, total: 1 } })).toEqual(before);
      expect(await store.update('ok', { progress: { done: 1, total: 1 } })).toEqual(before);

      await store.create(aJob('failed', { status: 'FAILED', reason: 'first reason' }));
      await store.update('failed', { status: 'RUNNING', reason: 'second reason' });
      expect(await store.get('failed')).toMatchObject({ status: 'FAILED', reason: 'first reason' });
    });

    it('never moves a status backwards, and drops the whole late patch', async () => {
      await store.create(aJob('j1'));
      await store.update('j1', { status: 'RUNNING', progress: { done: 4, total: 9 } });
      await store.update('j1', { status: 'PENDING', progress: { done: 0, total: 9 } });
      expect(await store.get('j1')).toMatchObject({ status: 'RUNNING', progress: { done: 4, total: 9 } });
      await store.update('j1', { status: 'RUNNING', progress: { done: 5, total: 9 } });
      expect(await store.get('j1')).toMatchObject({ status: 'RUNNING', progress: { done: 5, total: 9 } });
      await store.update('j1', { status: 'DEPROVISIONING' });
      expect((await store.get('j1'))?.status).toBe('DEPROVISIONING');
    });

    it('counts the active runs of one owner only', async () => {
      await store.create(aJob('a1'));
      await store.create(aJob('a2', { status: 'RUNNING' }));
      await store.create(aJob('a3', { status: 'SUCCEEDED' }));
      await store.create(aJob('a4'));
      await store.update('a4', { status: 'FAILED', reason: 'Sign-in failed.' });
      await store.create(aJob('b1', { owner: 'user-b', status: 'PENDING' }));
      expect(await store.countActive('user-a')).toBe(2);
      expect(await store.countActive('user-b')).toBe(1);
      expect(await store.countActive('user-c')).toBe(0);
    });

    it('lists jobs by status in creation order', async () => {
      await store.create(aJob('late', { status: 'RUNNING', createdAt: '2026-05-01T11:00:00.000Z' }));
      await store.create(aJob('early', { status: 'PENDING', createdAt: '2026-05-01T09:00:00.000Z' }));
      await store.create(aJob('done', { status: 'SUCCEEDED' }));
      const listed = await store.listByStatus(['PENDING', 'RUNNING']);
      expect(listed.map((job) => job.id)).toEqual(['early', 'late']);
      expect(await store.listByStatus([])).toEqual([]);
    });

    it('records a new job only while its owner and the deployment are under their caps', async () => {
      const limits = { perOwner: 2, overall: 3 };
      expect(await store.createWithinLimits(aJob('a1'), limits)).toEqual({ admitted: true });
      expect(await store.createWithinLimits(aJob('a2', { status: 'RUNNING' }), limits)).toEqual({ admitted: true });
      expect(await store.createWithinLimits(aJob('a3'), limits)).toEqual({ admitted: false, limit: 'perOwner', cap: 2 });
      expect(await store.get('a3')).toBeUndefined();

      expect(await store.createWithinLimits(aJob('b1', { owner: 'user-b' }), limits)).toEqual({ admitted: true });
      expect(await store.createWithinLimits(aJob('c1', { owner: 'user-c' }), limits)).toEqual({ admitted: false, limit: 'overall', cap: 3 });
      expect(await store.get('c1')).toBeUndefined();

      // A finished run makes room at once, for its owner and for everyone.
      await store.update('a1', { status: 'FAILED', reason: 'Sign-in failed.' });
      expect(await store.createWithinLimits(aJob('c1', { owner: 'user-c' }), limits)).toEqual({ admitted: true });
      await store.update('b1', { status: 'SUCCEEDED' });
      expect(await store.createWithinLimits(aJob('a3'), limits)).toEqual({ admitted: true });
      expect(await store.countActive('user-a')).toBe(2);
      expect((await store.listByStatus(['PROVISIONING', 'PENDING', 'RUNNING', 'DEPROVISIONING'])).map((job) => job.id).sort()).toEqual(['a2', 'a3', 'c1']);
    });

    it('never passes a cap however many requests race for it', async () => {
      const limits = { perOwner: 3, overall: 8 };
      const racing = Array.from({ length: 40 }, (_, index) => aJob(`r${index}`));
      const outcomes = await Promise.all(racing.map((job) => store.createWithinLimits(job, limits)));
      expect(outcomes.filter((outcome) => outcome.admitted)).toHaveLength(3);
      expect(await store.countActive('user-a')).toBe(3);

      const owners = Array.from({ length: 30 }, (_, index) => aJob(`o${index}`, { owner: `owner-${index}` }));
      const overall = await Promise.all(owners.map((job) => store.createWithinLimits(job, limits)));
      // 3 of user-a's are already running: 5 more places overall.
      expect(overall.filter((outcome) => outcome.admitted)).toHaveLength(5);
      expect(overall.filter((outcome) => !outcome.admitted).every((outcome) => !outcome.admitted && outcome.limit === 'overall')).toBe(true);
      expect(await store.listByStatus(['PROVISIONING'])).toHaveLength(8);
    });
  });
}
