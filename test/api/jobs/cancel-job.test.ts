// Cancelling a run: the record ends first and stays ended whatever the run sends after; a run that
// finds its record ended stops and keeps no report, even one it had finished writing. And a run
// records its course's name as soon as it has read it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cancelJob } from '../../../api/jobs/cancel-job.ts';
import { executeJob } from '../../../api/jobs/execute-job.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import type { SqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import type { JobPatch, JobRecord, ReportFiles, ReportStore } from '../../../api/jobs/types.ts';
import { startBrightspaceSite } from '../../fixtures/brightspace-site.ts';
import type { BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { aJob } from '../support/job-record.ts';

// A real engine run against a loopback site: a safety net for a busy machine, not a measure.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const PASSWORD = 'cancel-test-pw-42';
let site: BrightspaceSite;
let store: SqliteJobStore;

/** Reports in memory, with what was ever written and what was removed. */
function memoryReports(): ReportStore & { files: Map<string, ReportFiles>; removed: string[] } {
  const files = new Map<string, ReportFiles>();
  const removed: string[] = [];
  return {
    files,
    removed,
    async put(filename, written) {
      files.set(filename, written);
    },
    async get(filename) {
      return files.get(filename)?.json;
    },
    async remove(filename) {
      removed.push(filename);
      files.delete(filename);
    },
  };
}

/** The store, with the owner's cancel landing just before the run records the given patch. */
function cancelledBefore(wanted: (patch: JobPatch) => boolean): Pick<SqliteJobStore, 'update'> {
  return {
    async update(id, patch) {
      if (wanted(patch)) await cancelJob((await store.get(id))!, { jobs: store, runner: {} });
      return store.update(id, patch);
    },
  };
}

beforeAll(async () => {
  site = await startBrightspaceSite({
    login: 'form',
    users: [{ username: 'teacher', password: PASSWORD }],
    courses: [{ orgUnitId: 6606, name: 'Nursing 101', code: 'NURS101', modules: [{ id: 11, title: 'Week 1', topics: [{ id: 101, title: 'Welcome', kind: 'html', fileName: 'welcome.html', html: '<h1>Welcome</h1><p>TBD</p>' }] }] }],
  });
  store = openSqliteJobStore({ path: ':memory:' });
});

afterAll(async () => {
  store?.close();
  await site?.close();
});

async function runWith(id: string, jobs: Pick<SqliteJobStore, 'update'>, reports: ReportStore): Promise<JobRecord | undefined> {
  const job = aJob(id, { siteUrl: site.origin, modules: [11] });
  await store.create(job);
  return executeJob({ job, credentials: { username: 'teacher', password: PASSWORD }, jobs, reports, allowPrivateTargets: true, progressIntervalMs: 1, log: () => undefined });
}

describe('cancelJob', () => {
  it('ends an active job FAILED "Cancelled" and asks the runner to stop it; an ended job is left as it is', async () => {
    const job = aJob('c1', { status: 'RUNNING', language: 'de' });
    await store.create(job);
    const stopped: JobRecord[] = [];
    const ended = await cancelJob(job, { jobs: store, runner: { cancel: async (record) => void stopped.push(record) }, now: () => new Date('2026-11-28T10:00:00Z') });
    expect(ended).toMatchObject({ status: 'FAILED', reason: 'Abgebrochen', finishedAt: '2026-11-28T10:00:00.000Z' });
    expect(stopped.map((record) => record.id)).toEqual(['c1']);
    // Already over: nothing changes, nothing is stopped.
    expect(await cancelJob((await store.get('c1'))!, { jobs: store, runner: { cancel: async (record) => void stopped.push(record) } })).toBeUndefined();
    // Ended between the read and the cancel (it succeeded meanwhile): its end stands.
    await store.create(aJob('c2', { status: 'RUNNING' }));
    const stale = (await store.get('c2'))!;
    await store.update('c2', { status: 'SUCCEEDED' });
    expect(await cancelJob(stale, { jobs: store, runner: { cancel: async (record) => void stopped.push(record) } })).toBeUndefined();
    expect(await store.get('c2')).toMatchObject({ status: 'SUCCEEDED' });
    expect(stopped).toHaveLength(1);
  });

  it('keeps the cancel when the runtime cannot stop the run, and logs why', async () => {
    await store.create(aJob('c3', { status: 'RUNNING' }));
    const logged: string[] = [];
    const ended = await cancelJob((await store.get('c3'))!, {
      jobs: store,
      runner: { cancel: async () => Promise.reject(Object.assign(new Error('The referenced task was not found.'), { name: 'InvalidParameterException' })) },
      log: (line) => logged.push(line),
    });
    expect(ended).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    expect(logged).toEqual(['job c3: its run could not be stopped: InvalidParameterException: The referenced task was not found.']);
  });
});

describe('a run whose record was cancelled', () => {
  it('keeps no report when the cancel lands while the report is written', async () => {
    const reports = memoryReports();
    const final = await runWith('r1', cancelledBefore((patch) => patch.status === 'DEPROVISIONING'), reports);
    expect(final).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    expect(reports.removed).toEqual(['acme-college-ou6606-r1']);
    expect(reports.files.size).toBe(0);
    expect((await store.get('r1'))?.summary).toBeUndefined();
  });

  it('stops at its next progress write, before any report is written', async () => {
    const reports = memoryReports();
    const final = await runWith('r2', cancelledBefore((patch) => patch.progress !== undefined), reports);
    expect(final).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    expect(reports.files.size).toBe(0);
    expect(reports.removed).toEqual([]);
  });

  it('does not run at all when it was cancelled while it waited', async () => {
    const reports = memoryReports();
    const final = await runWith('r3', cancelledBefore((patch) => patch.status === 'RUNNING'), reports);
    expect(final).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    expect(final?.startedAt).toBeUndefined();
    expect(reports.files.size).toBe(0);
  });

  it('is kept, report and all, when nobody cancels it; the course is named as soon as it is read', async () => {
    const reports = memoryReports();
    const patches: JobPatch[] = [];
    const recording: Pick<SqliteJobStore, 'update'> = { update: (id, patch) => (patches.push(patch), store.update(id, patch)) };
    expect(await runWith('r4', recording, reports)).toMatchObject({ status: 'SUCCEEDED', courseName: 'Nursing 101' });
    expect([...reports.files.keys()]).toEqual(['acme-college-ou6606-r4']);
    // Named while it runs (the monitor shows it), well before the end.
    const named = patches.findIndex((patch) => patch.courseName === 'Nursing 101');
    expect(named).toBeGreaterThan(0);
    expect(named).toBeLessThan(patches.findIndex((patch) => patch.status === 'DEPROVISIONING'));
  });
});
