import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESTART_REASON, failInterruptedJobs } from '../../../api/jobs/fail-interrupted-jobs.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import type { SqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import type { JobRecord } from '../../../api/jobs/types.ts';
import { aJob } from '../support/job-record.ts';

describe('the SQLite job store', () => {
  let dir: string;
  let store: SqliteJobStore;
  let clock: Date;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctpo-store-'));
    clock = new Date('2026-05-01T10:00:05.000Z');
    store = openSqliteJobStore({ path: join(dir, 'jobs.sqlite'), now: () => clock });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a job as written and reads it back', async () => {
    await store.create(aJob('j1'));
    expect(await store.get('j1')).toEqual(aJob('j1'));
    expect(await store.get('nope')).toBeUndefined();
  });

  it('applies a patch, bumps updatedAt and stamps finishedAt on a terminal status', async () => {
    await store.create(aJob('j1'));
    const running = await store.update('j1', { status: 'RUNNING', startedAt: '2026-05-01T10:00:04.000Z', progress: { done: 2, total: 9 } });
    expect(running).toMatchObject({ status: 'RUNNING', progress: { done: 2, total: 9 }, updatedAt: clock.toISOString() });
    clock = new Date('2026-05-01T10:03:00.000Z');
    const done = await store.update('j1', { status: 'SUCCEEDED' });
    expect(done).toMatchObject({ status: 'SUCCEEDED', finishedAt: '2026-05-01T10:03:00.000Z', startedAt: '2026-05-01T10:00:04.000Z' });
    expect(await store.update('nope', { status: 'RUNNING' })).toBeUndefined();
  });

  it('keeps the phase of the progress, and keeps the last phase when a patch carries no progress', async () => {
    await store.create(aJob('j1'));
    await store.update('j1', { status: 'RUNNING', progress: { done: 40, total: 300, phase: 'topics' } });
    expect(await store.get('j1')).toMatchObject({ progress: { done: 40, total: 300, phase: 'topics' } });
    await store.update('j1', { progress: { done: 12, total: 1305, phase: 'links' } });
    await store.update('j1', { status: 'DEPROVISIONING' });
    expect((await store.get('j1'))?.progress).toEqual({ done: 12, total: 1305, phase: 'links' });
    await store.update('j1', { progress: { done: 1, total: 2 } });
    expect((await store.get('j1'))?.progress).toEqual({ done: 1, total: 2 });
  });

  it('never changes a terminal job again, even with raw SQL', async () => {
    await store.create(aJob('ok'));
    await store.update('ok', { status: 'SUCCEEDED' });
    const before = await store.get('ok');
    clock = new Date('2026-05-02T00:00:00.000Z');
    const after = await store.update('ok', { status: 'FAILED', reason: 'late', progress: { done: 1, total: 1 } });
    expect(after).toEqual(before);

    await store.create(aJob('failed', { status: 'FAILED', reason: 'first reason' }));
    await store.update('failed', { status: 'RUNNING', reason: 'second reason' });
    expect(await store.get('failed')).toMatchObject({ status: 'FAILED', reason: 'first reason' });

    // The rule lives in the schema: a second connection writing SQL directly is held to it too.
    const { DatabaseSync } = await import('node:sqlite');
    const raw = new DatabaseSync(join(dir, 'jobs.sqlite'));
    raw.prepare("UPDATE jobs SET status = 'RUNNING', reason = NULL WHERE id = ?").run('failed');
    raw.close();
    expect(await store.get('failed')).toMatchObject({ status: 'FAILED', reason: 'first reason' });
  });

  it('never moves a status backwards', async () => {
    await store.create(aJob('j1'));
    await store.update('j1', { status: 'RUNNING' });
    await store.update('j1', { status: 'PENDING' });
    expect((await store.get('j1'))?.status).toBe('RUNNING');
    await store.update('j1', { status: 'DEPROVISIONING' });
    expect((await store.get('j1'))?.status).toBe('DEPROVISIONING');
  });

  it('refuses a status outside the lifecycle', async () => {
    await expect(store.create(aJob('bad', { status: 'DONE' as JobRecord['status'] }))).rejects.toThrow();
    expect(await store.get('bad')).toBeUndefined();
  });

  it('counts the active runs of one owner only', async () => {
    await store.create(aJob('a1'));
    await store.create(aJob('a2', { status: 'RUNNING' }));
    await store.create(aJob('a3', { status: 'SUCCEEDED' }));
    await store.create(aJob('b1', { owner: 'user-b', status: 'PENDING' }));
    expect(await store.countActive('user-a')).toBe(2);
    expect(await store.countActive('user-b')).toBe(1);
    expect(await store.countActive('user-c')).toBe(0);
  });

  it('after a restart, ends every interrupted job FAILED with the reason and keeps the history', async () => {
    await store.create(aJob('done', { status: 'SUCCEEDED' }));
    await store.create(aJob('gave-up', { status: 'FAILED', reason: 'Sign-in failed.' }));
    await store.create(aJob('queued', { status: 'PENDING' }));
    await store.create(aJob('mid-run', { status: 'RUNNING', progress: { done: 3, total: 10 } }));
    await store.create(aJob('new', { status: 'PROVISIONING' }));
    store.close();

    store = openSqliteJobStore({ path: join(dir, 'jobs.sqlite'), now: () => clock });
    expect(await failInterruptedJobs(store)).toBe(3);
    for (const id of ['queued', 'mid-run', 'new']) {
      expect(await store.get(id)).toMatchObject({ status: 'FAILED', reason: RESTART_REASON });
    }
    expect(await store.get('mid-run')).toMatchObject({ progress: { done: 3, total: 10 } });
    expect(await store.get('done')).toMatchObject({ status: 'SUCCEEDED' });
    expect(await store.get('gave-up')).toMatchObject({ status: 'FAILED', reason: 'Sign-in failed.' });
    expect(await failInterruptedJobs(store)).toBe(0);
  });

  it('opens a database of the first schema, keeps its jobs, and records phases from then on', async () => {
    store.close();
    const path = join(dir, 'schema-1.sqlite');
    const old = new DatabaseSync(path);
    old.exec(`CREATE TABLE jobs (id TEXT PRIMARY KEY, owner TEXT NOT NULL, status TEXT NOT NULL, client TEXT NOT NULL,
      site_url TEXT NOT NULL, org_unit_id INTEGER NOT NULL, modules TEXT NOT NULL, filename TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, started_at TEXT, finished_at TEXT, progress_done INTEGER,
      progress_total INTEGER, reason TEXT, runner_ref TEXT) STRICT;
      INSERT INTO jobs VALUES ('old', 'user-a', 'SUCCEEDED', 'Acme College', 'https://acme.brightspace.com', 6606, '[1]',
        'acme-old', '2026-04-01T10:00:00.000Z', '2026-04-01T10:05:00.000Z', NULL, NULL, 5, 5, NULL, NULL);
      PRAGMA user_version = 1;`);
    old.close();

    store = openSqliteJobStore({ path, now: () => clock });
    expect(await store.get('old')).toMatchObject({ status: 'SUCCEEDED', progress: { done: 5, total: 5 } });
    await store.create(aJob('new'));
    await store.update('new', { status: 'RUNNING', progress: { done: 1, total: 4, phase: 'topics' } });
    expect((await store.get('new'))?.progress).toEqual({ done: 1, total: 4, phase: 'topics' });
  });
});
