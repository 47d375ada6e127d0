import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { RESTART_REASON, failInterruptedJobs } from '../../../api/jobs/fail-interrupted-jobs.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import type { SqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import { aJob } from '../support/job-record.ts';
import { describeJobStoreContract } from '../support/job-store-contract.ts';

describeJobStoreContract('SQLite', (now) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctpo-store-'));
  const store = openSqliteJobStore({ path: join(dir, 'jobs.sqlite'), now });
  return {
    store,
    close: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

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

  it('holds a second connection writing SQL directly to the same rules: the schema keeps them', async () => {
    await store.create(aJob('failed', { status: 'FAILED', reason: 'first reason' }));
    await store.create(aJob('running', { status: 'RUNNING' }));
    const raw = new DatabaseSync(join(dir, 'jobs.sqlite'));
    raw.prepare("UPDATE jobs SET status = 'RUNNING', reason = NULL WHERE id = ?").run('failed');
    raw.prepare("UPDATE jobs SET status = 'PENDING' WHERE id = ?").run('running');
    raw.close();
    expect(await store.get('failed')).toMatchObject({ status: 'FAILED', reason: 'first reason' });
    expect((await store.get('running'))?.status).toBe('RUNNING');
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
      expect(await store.get(id)).toMatchObject({ status: 'FAILED', reason: formatMessage(RESTART_REASON) });
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

  it('opens a database of the third schema, keeps its jobs, and keeps a run’s exact choice from then on', async () => {
    store.close();
    const path = join(dir, 'schema-3.sqlite');
    store = openSqliteJobStore({ path, now: () => clock });
    await store.create(aJob('old', { scopes: ['quizzes'] }));
    store.close();
    const old = new DatabaseSync(path);
    old.exec(`ALTER TABLE jobs DROP COLUMN exclude_modules; ALTER TABLE jobs DROP COLUMN module_titles; ALTER TABLE jobs DROP COLUMN user_name;
      ALTER TABLE jobs DROP COLUMN full; PRAGMA user_version = 3;`);
    old.close();

    store = openSqliteJobStore({ path, now: () => clock });
    expect(await store.get('old')).toEqual(aJob('old', { scopes: ['quizzes'] }));
    const chosen = aJob('new', { excludeModules: [4], moduleTitles: { 1: 'Unit 1' }, userName: 'qa.tester' });
    await store.create(chosen);
    expect(await store.get('new')).toEqual(chosen);
  });

  it('opens a database of the fourth schema, keeps its jobs, and keeps "check everything again" from then on', async () => {
    store.close();
    const path = join(dir, 'schema-4.sqlite');
    store = openSqliteJobStore({ path, now: () => clock });
    await store.create(aJob('old'));
    store.close();
    const old = new DatabaseSync(path);
    old.exec('ALTER TABLE jobs DROP COLUMN full; PRAGMA user_version = 4;');
    old.close();

    store = openSqliteJobStore({ path, now: () => clock });
    expect(await store.get('old')).toEqual(aJob('old'));
    await store.create(aJob('new', { full: true }));
    expect(await store.get('new')).toEqual(aJob('new', { full: true }));
  });
});
