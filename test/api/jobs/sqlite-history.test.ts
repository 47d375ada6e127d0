// The local history: the shared contract on SQLite, then what is its own (a restart keeps the
// history and the dismissals; retention deletes old finished jobs, never a dismissal).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteDismissalStore } from '../../../api/jobs/sqlite-dismissal-store.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import { aJob } from '../support/job-record.ts';
import { describeHistoryStoreContract } from '../support/history-store-contract.ts';

describeHistoryStoreContract('SQLite', (now) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctpo-history-'));
  const path = join(dir, 'jobs.sqlite');
  const jobs = openSqliteJobStore({ path });
  const dismissals = openSqliteDismissalStore({ path, now });
  return {
    jobs,
    dismissals,
    close: () => {
      jobs.close();
      dismissals.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('the SQLite history', () => {
  let dir: string;
  let path: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctpo-history-'));
    path = join(dir, 'jobs.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const course = { siteUrl: 'https://acme.brightspace.com', orgUnitId: 6606 };
  const dismissal = { fingerprint: '0123456789abcdef0123', by: 'qa@example.com', at: '2026-05-01T10:00:00.000Z', reason: 'Known.' };

  it('keeps the runs and the dismissals across a restart', async () => {
    const jobs = openSqliteJobStore({ path });
    const dismissals = openSqliteDismissalStore({ path });
    await jobs.create(aJob('a1', { status: 'SUCCEEDED' }));
    await dismissals.put('user-a', course, dismissal);
    jobs.close();
    dismissals.close();

    const jobsAgain = openSqliteJobStore({ path });
    const dismissalsAgain = openSqliteDismissalStore({ path });
    try {
      expect((await jobsAgain.listByOwner('user-a', { limit: 5 })).jobs.map((job) => job.id)).toEqual(['a1']);
      expect(await dismissalsAgain.list('user-a', course)).toEqual([dismissal]);
    } finally {
      jobsAgain.close();
      dismissalsAgain.close();
    }
  });

  it('deletes finished jobs older than the cutoff and names their reports; unfinished jobs and dismissals stay', async () => {
    const jobs = openSqliteJobStore({ path });
    const dismissals = openSqliteDismissalStore({ path });
    try {
      await jobs.create(aJob('old-done', { createdAt: '2026-03-01T10:00:00.000Z', status: 'SUCCEEDED' }));
      await jobs.create(aJob('old-failed', { createdAt: '2026-03-02T10:00:00.000Z', status: 'FAILED', reason: 'Sign-in failed.' }));
      await jobs.create(aJob('old-running', { createdAt: '2026-03-03T10:00:00.000Z', status: 'RUNNING' }));
      await jobs.create(aJob('recent', { createdAt: '2026-04-20T10:00:00.000Z', status: 'SUCCEEDED' }));
      await dismissals.put('user-a', course, dismissal);

      const removed = await jobs.deleteFinishedBefore(new Date('2026-04-01T00:00:00.000Z'));
      expect(removed.sort()).toEqual(['acme-college-ou6606-old-done', 'acme-college-ou6606-old-failed']);
      expect((await jobs.listByOwner('user-a', { limit: 10 })).jobs.map((job) => job.id)).toEqual(['recent', 'old-running']);
      expect(await jobs.deleteFinishedBefore(new Date('2026-04-01T00:00:00.000Z'))).toEqual([]);
      expect(await dismissals.list('user-a', course)).toEqual([dismissal]);
    } finally {
      jobs.close();
      dismissals.close();
    }
  });
});
