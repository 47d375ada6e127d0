import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { CRASH_REASON, RUN_NICENESS, SHUTDOWN_QUEUED_REASON, SHUTDOWN_REASON, createLocalJobRunner } from '../../../api/jobs/local-job-runner.ts';
import type { LocalJobRunner, LocalJobRunnerOptions } from '../../../api/jobs/local-job-runner.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import type { SqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import type { JobRecord } from '../../../api/jobs/types.ts';
import { cancelJob } from '../../../api/jobs/cancel-job.ts';

// Real processes, one per run, on a machine shared with other test runs.
// Safety nets only: on a busy machine a run here can take many times its usual second or two.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const scriptedWorker = new URL('./fixtures/scripted-job-worker.ts', import.meta.url);

let dir: string;
let store: SqliteJobStore;
let runner: LocalJobRunner | undefined;
const logged: string[] = [];

function aJob(index: number, client: string): JobRecord {
  const at = new Date().toISOString();
  return {
    id: `job-${String(index).padStart(3, '0')}`,
    owner: 'user-a',
    status: 'PROVISIONING',
    client,
    siteUrl: 'https://acme.brightspace.com',
    orgUnitId: 6606,
    modules: [1],
    filename: `acme-ou6606-${index}`,
    createdAt: at,
    updatedAt: at,
  };
}

function makeRunner(options: Partial<LocalJobRunnerOptions> = {}): LocalJobRunner {
  runner = createLocalJobRunner({
    jobs: store,
    reportsDir: join(dir, 'reports'),
    allowPrivateTargets: false,
    workerEntry: scriptedWorker,
    log: (line) => logged.push(line),
    ...options,
  });
  return runner;
}

async function submit(pool: LocalJobRunner, job: JobRecord): Promise<void> {
  await store.create(job);
  await pool.submit(job, { username: 'qa-user', password: 'secret-pw-123' });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ctpo-pool-'));
  store = openSqliteJobStore({ path: join(dir, 'jobs.sqlite') });
  logged.length = 0;
});
afterEach(async () => {
  await runner?.close();
  runner = undefined;
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the local worker pool', () => {
  it('runs at most `concurrency` jobs at once, starts the waiting ones in arrival order, and finishes them all', async () => {
    const pool = makeRunner({ concurrency: 2 });
    const jobs = Array.from({ length: 7 }, (_, i) => aJob(i, 'sleep-150'));
    let maxRunning = 0;
    const sampler = setInterval(() => (maxRunning = Math.max(maxRunning, pool.stats().running)), 5);
    for (const job of jobs) await submit(pool, job);
    expect(pool.stats()).toEqual({ running: 2, queued: 5 });
    expect((await store.get(jobs[6]!.id))?.status).toBe('PENDING');
    await pool.idle();
    clearInterval(sampler);

    const finished = await Promise.all(jobs.map((job) => store.get(job.id)));
    expect(finished.map((job) => job?.status)).toEqual(Array(7).fill('SUCCEEDED'));
    expect(finished.every((job) => job?.progress?.done === 2 && job.finishedAt !== undefined)).toBe(true);
    expect(maxRunning).toBe(2);
    // Each run names its place in the start order and its process: the start order is the arrival order.
    const starts = finished.map((job) => /^local-(\d+)-pid-\d+$/.exec(job!.runnerRef!)?.[1]).map(Number);
    expect(starts).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // And at no moment were more runs going than the cap. The most at once is reached at some run's
    // start, so counting the runs going at each start is enough (a long run may overlap two shorter
    // ones in turn: that is fine).
    for (const job of finished) {
      const atItsStart = finished.filter((other) => other!.startedAt! <= job!.startedAt! && job!.startedAt! < other!.finishedAt!);
      expect(atItsStart.length).toBeLessThanOrEqual(2);
    }
  });

  it('refuses work beyond the queue as overloaded, without touching the refused job', async () => {
    const pool = makeRunner({ concurrency: 1, maxQueued: 1 });
    await submit(pool, aJob(1, 'sleep-300'));
    await submit(pool, aJob(2, 'sleep-10'));
    expect(pool.hasCapacity()).toBe(false);
    const third = aJob(3, 'sleep-10');
    await store.create(third);
    await expect(pool.submit(third, { username: 'qa', password: 'pw' })).rejects.toMatchObject({ code: 'overloaded' });
    expect((await store.get(third.id))?.status).toBe('PROVISIONING');
    await pool.idle();
    expect(pool.hasCapacity()).toBe(true);
  });

  it('keeps a run’s own failure reason, and fails a crashed run without leaking the password', async () => {
    const pool = makeRunner({ concurrency: 2 });
    await submit(pool, aJob(1, 'fail'));
    await submit(pool, aJob(2, 'crash'));
    await submit(pool, aJob(3, 'sleep-20'));
    await pool.idle();
    expect(await store.get('job-001')).toMatchObject({ status: 'FAILED', reason: 'Sign-in to Brightspace failed: check the user name and password.' });
    expect(await store.get('job-002')).toMatchObject({ status: 'FAILED', reason: formatMessage(CRASH_REASON) });
    expect(await store.get('job-003')).toMatchObject({ status: 'SUCCEEDED' });
    // The crash is logged with where it happened; its message held the password, so it is left out.
    expect(logged.join('\n')).toMatch(/job-002: worker error: Error \(its message is not logged\)\n\s+at .*scripted-job-worker/);
    expect(logged.join('\n')).not.toContain('secret-pw-123');
  });

  it('applies only what a run may set on its own job: another job, an owner, a runner reference or an unknown status is refused, logged and changes nothing', async () => {
    const pool = makeRunner({ concurrency: 2 });
    await submit(pool, aJob(1, 'trespass'));
    await submit(pool, aJob(2, 'sleep-20'));
    await pool.idle();
    const own = await store.get('job-001');
    expect(own).toMatchObject({ status: 'SUCCEEDED', owner: 'user-a', courseName: 'Own course' });
    // Its runner reference is the pool's own, never the one the run sent.
    expect(own?.runnerRef).toMatch(/^local-\d+-pid-\d+$/);
    expect(own?.reason).toBeUndefined();
    expect(await store.get('job-002')).toMatchObject({ status: 'SUCCEEDED', owner: 'user-a' });
    const refusals = logged.filter((line) => line.includes('a run may not make'));
    expect(refusals).toEqual([
      'job job-001: its process sent an update a run may not make (id, jobId); refused, nothing changed',
      'job job-001: its process sent an update a run may not make (patch.owner); refused, nothing changed',
      'job job-001: its process sent an update a run may not make (patch.runnerRef); refused, nothing changed',
      'job job-001: its process sent an update a run may not make (patch.status); refused, nothing changed',
    ]);
  });

  it('stops a run that takes too long, and terminates one that does not stop', async () => {
    const pool = makeRunner({ concurrency: 2, runTimeoutMs: 300, stopGraceMs: 200 });
    await submit(pool, aJob(1, 'hang'));
    await submit(pool, aJob(2, 'stubborn'));
    // Neither script ever ends by itself: idle() resolves only because the pool stopped them.
    await pool.idle();
    for (const id of ['job-001', 'job-002']) {
      const job = await store.get(id);
      expect(job?.status).toBe('FAILED');
      expect(job?.reason).toMatch(/^The run took longer than 1 second and was stopped/);
    }
  });

  it('cancels a running run: its process is stopped (killed when it does not stop), it ends FAILED "Cancelled", and the report files it began are deleted', async () => {
    const pool = makeRunner({ concurrency: 2, stopGraceMs: 200 });
    await submit(pool, aJob(1, 'stubborn'));
    await submit(pool, aJob(2, 'sleep-60000'));
    const reports = join(dir, 'reports');
    // What a run killed while it wrote its report would leave: some of its files.
    mkdirSync(reports, { recursive: true });
    for (const extension of ['json', 'csv']) writeFileSync(join(reports, `acme-ou6606-1.${extension}`), '{}');
    while ((await store.get('job-001'))?.status !== 'RUNNING' || (await store.get('job-002'))?.status !== 'RUNNING') await new Promise((resolve) => setTimeout(resolve, 20));

    for (const id of ['job-001', 'job-002']) {
      const ended = await cancelJob((await store.get(id))!, { jobs: store, runner: pool });
      expect(ended).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    }
    // Neither run ends by itself within the test: idle() resolves only because both were stopped.
    await pool.idle();
    for (const id of ['job-001', 'job-002']) expect(await store.get(id)).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    expect(['json', 'csv', 'html'].filter((extension) => existsSync(join(reports, `acme-ou6606-1.${extension}`)))).toEqual([]);
  });

  it('never starts a run cancelled while it waits for a slot', async () => {
    const pool = makeRunner({ concurrency: 1 });
    await submit(pool, aJob(1, 'sleep-300'));
    await submit(pool, aJob(2, 'crash'));
    expect((await store.get('job-002'))?.status).toBe('PENDING');
    await cancelJob((await store.get('job-002'))!, { jobs: store, runner: pool });
    await pool.idle();
    expect(await store.get('job-001')).toMatchObject({ status: 'SUCCEEDED' });
    // Had it started, its crash would have been logged.
    const waited = await store.get('job-002');
    expect(waited).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    expect(waited?.startedAt).toBeUndefined();
    expect(logged.join('\n')).not.toContain('job-002');
  });

  it('runs each job in a process of its own at a lower CPU priority, with the credentials in neither its arguments nor its environment', async () => {
    // The server's own secrets are not the run's either: its process gets the settings it reads only.
    const secrets = { CTPO_LOCAL_PASSWORD: 'canary-local-8812', AWS_SECRET_ACCESS_KEY: 'canary-aws-8812', CTPO_ENHANCED_CONTRAST: '1' };
    const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
    Object.assign(process.env, secrets);
    const pool = makeRunner({ concurrency: 1, stopGraceMs: 300 });
    try {
      await submit(pool, aJob(1, 'hang'));
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    let job = await store.get('job-001');
    while (job?.status !== 'RUNNING') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = await store.get('job-001');
    }
    const pid = Number(/-pid-(\d+)$/.exec(job.runnerRef ?? '')?.[1]);
    expect(pid).not.toBe(process.pid);
    expect(getPriority(pid)).toBe(Math.min(19, getPriority() + RUN_NICENESS));
    // What the system shows of the run's process (Linux): no trace of the credentials.
    for (const view of ['cmdline', 'environ']) {
      const shown = readFileSync(`/proc/${pid}/${view}`);
      expect(shown.includes('secret-pw-123'), view).toBe(false);
      expect(shown.includes('qa-user'), view).toBe(false);
      expect(shown.includes('canary-local-8812'), view).toBe(false);
      expect(shown.includes('canary-aws-8812'), view).toBe(false);
    }
    expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain('CTPO_ENHANCED_CONTRAST=1');
    await pool.close();
  });

  it('on close, fails the waiting runs and stops the running ones, each with its reason, and takes no more', async () => {
    const pool = makeRunner({ concurrency: 1, stopGraceMs: 300 });
    await submit(pool, aJob(1, 'hang'));
    await submit(pool, aJob(2, 'sleep-10'));
    // Close once the first run is under way (a worker thread takes a moment to start, many on a busy machine).
    for (const deadline = Date.now() + 100_000; (await store.get('job-001'))?.status !== 'RUNNING' && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await pool.close();
    expect(await store.get('job-001')).toMatchObject({ status: 'FAILED', reason: formatMessage(SHUTDOWN_REASON) });
    expect(await store.get('job-002')).toMatchObject({ status: 'FAILED', reason: formatMessage(SHUTDOWN_QUEUED_REASON) });
    const late = aJob(3, 'sleep-10');
    await store.create(late);
    await expect(pool.submit(late, { username: 'qa', password: 'pw' })).rejects.toMatchObject({ code: 'overloaded' });
  });
});
