// A run through the real pool, the real worker thread and the real engine, against a
// Brightspace-like site on loopback: statuses, progress, both reports, and reasons for failures.
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalJobRunner } from '../../../api/jobs/local-job-runner.ts';
import type { LocalJobRunner } from '../../../api/jobs/local-job-runner.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import type { SqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import type { JobRecord } from '../../../api/jobs/types.ts';
import { startBrightspaceSite } from '../../fixtures/brightspace-site.ts';
import type { BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { aJob } from '../support/job-record.ts';

// Real servers, worker threads and key generation on a machine shared with other test runs.
// Safety nets only: on a busy machine a run here can take many times its usual second or two.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const PASSWORD = 'Tr0ub4dor&3-unique';

let dir: string;
let site: BrightspaceSite;
let store: SqliteJobStore;
let runner: LocalJobRunner;

async function run(job: JobRecord, password: string): Promise<JobRecord> {
  await store.create(job);
  await runner.submit(job, { username: 'teacher', password });
  for (let i = 0; i < 600; i++) {
    const current = await store.get(job.id);
    if (current?.status === 'SUCCEEDED' || current?.status === 'FAILED') return current;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${job.id} did not finish`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ctpo-run-'));
  site = await startBrightspaceSite({
    login: 'form',
    users: [{ username: 'teacher', password: PASSWORD }],
    courses: [
      {
        orgUnitId: 6606,
        name: 'Nursing 101',
        code: 'NURS101',
        modules: [
          {
            id: 11,
            title: 'Week 1',
            topics: [
              { id: 101, title: 'Welcome', kind: 'html', fileName: 'welcome.html', html: '<h1>Welcome</h1><p>Lorem ipsum dolor sit amet.</p><img src="photo.png">' },
              { id: 102, title: 'Syllabus', kind: 'html', fileName: 'syllabus.html', html: '<h2>Syllabus</h2><p>TBD</p>' },
            ],
          },
        ],
      },
    ],
  });
  store = openSqliteJobStore({ path: join(dir, 'jobs.sqlite') });
  runner = createLocalJobRunner({ jobs: store, reportsDir: join(dir, 'reports'), allowPrivateTargets: true, concurrency: 2, progressIntervalMs: 50, log: () => undefined });
});

afterAll(async () => {
  await runner.close();
  store.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a course test run in a worker thread', () => {
  it('ends SUCCEEDED with its summary and course name, the report and its twins stored, progress recorded and the password written nowhere', async () => {
    const done = await run(aJob('ok', { siteUrl: site.origin, modules: [11] }), PASSWORD);
    expect(done).toMatchObject({ status: 'SUCCEEDED', startedAt: expect.any(String), finishedAt: expect.any(String), courseName: 'Nursing 101' });
    // What the job monitor's summary line says, counted as the report counts it: the missing alt,
    // the broken image, the two placeholders, and each HTML file topic without a title or a language.
    // ... and scored by CTPO's default protocol, as every run without a client protocol is: its three
    // manual items wait for a person.
    expect(done.summary).toEqual({
      findings: { error: 8, warning: 0, info: 0, review: 0 },
      topics: 2,
      scanned: 2,
      notScanned: 0,
      documents: 0,
      links: 1,
      protocol: { name: 'CTPO launch checklist', version: 1, score: expect.any(Number), items: expect.objectContaining({ person: 3, na: 0 }) },
    });
    // The last progress written is the report phase's, with the phase named for the job monitor.
    expect(done.progress).toEqual({ done: 1, total: 1, phase: 'report' });
    expect(done.reason).toBeUndefined();

    const html = readFileSync(join(dir, 'reports', `${done.filename}.html`), 'utf8');
    const json = JSON.parse(readFileSync(join(dir, 'reports', `${done.filename}.json`), 'utf8')) as { schemaVersion: number; client: string; orgUnitId: number; findings: { check: string }[] };
    expect(html).toContain('Acme College');
    expect(json).toMatchObject({ schemaVersion: 3, client: 'Acme College', orgUnitId: 6606 });
    expect(json.findings.map((finding) => finding.check)).toEqual(expect.arrayContaining(['content.placeholder', 'a11y.document-title', 'a11y.html-has-lang']));
    const csv = readFileSync(join(dir, 'reports', `${done.filename}.csv`), 'utf8');
    expect(csv.split('\r\n')[0]).toBe('\ufeffModule,Topic,Item,Check,Check ID,Severity,What is wrong,Where,Link text,Address,How to fix,Fingerprint');

    for (const file of readdirSync(dir, { recursive: true }) as string[]) {
      const path = join(dir, file);
      if (!/\.(sqlite(-wal|-shm)?|html|json|csv)$/.test(file)) continue;
      expect(readFileSync(path).includes(PASSWORD), file).toBe(false);
    }
  });

  it('reads the course-wide items the job was started with', async () => {
    const done = await run(aJob('scoped', { siteUrl: site.origin, modules: [11], scopes: ['announcements', 'gradebook'] }), PASSWORD);
    expect(done.status).toBe('SUCCEEDED');
    const json = JSON.parse(readFileSync(join(dir, 'reports', `${done.filename}.json`), 'utf8')) as { scopes: string[] };
    expect(json.scopes).toEqual(['announcements', 'gradebook']);
    const paths = site.requests.map((request) => request.path);
    expect(paths.some((path) => path.endsWith('/6606/news/'))).toBe(true);
    expect(paths.some((path) => path.endsWith('/6606/grades/'))).toBe(true);
  });

  it('ends FAILED with the engine’s reason for a wrong password, in the job’s language', async () => {
    const done = await run(aJob('wrong-pw', { siteUrl: site.origin, modules: [11], language: 'fr-FR' }), 'not-the-password');
    expect(done.status).toBe('FAILED');
    expect(done.reason).toBe('Brightspace n’a pas accepté ce nom d’utilisateur et ce mot de passe. Vérifiez-les, puis réessayez.');
    expect(done.reason).not.toContain('not-the-password');
    expect(readdirSync(join(dir, 'reports')).some((name) => name.includes('wrong-pw'))).toBe(false);
  });

  it('shows the reason whole for a one-letter password: no part of it is cut out or marked', async () => {
    const done = await run(aJob('one-letter', { siteUrl: site.origin, modules: [11] }), 'p');
    expect(done.reason).toBe('Brightspace did not accept this user name and password. Check them and try again.');
  });

  it('ends FAILED with a reason, in bounded time, when the site is down', async () => {
    // Bounded by the test's own limit: a run that kept retrying would never end.
    const done = await run(aJob('down', { siteUrl: 'http://127.0.0.1:9', modules: [11] }), PASSWORD);
    expect(done.status).toBe('FAILED');
    expect(done.reason).toMatch(/127\.0\.0\.1:9/);
  }, 120_000);
});
