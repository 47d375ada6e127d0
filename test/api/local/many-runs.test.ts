// Twenty runs submitted at once through the QA API, each a real engine run of the demo course in
// the worker pool: every one is accepted, waits its turn, finishes with its report; none is lost,
// none stuck, and never more run at once than the pool allows.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_STATUSES } from '../../../api/jobs/job-status.ts';
import { DEMO_MODULES, DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER, startDemoCourse } from '../../../api/local/demo-course/demo-course.ts';
import type { DemoCourse } from '../../../api/local/demo-course/demo-course.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { apiCaller } from './run-helpers.ts';
import type { ApiCaller } from './run-helpers.ts';
import { httpsClient, signIn, startTestStack } from './support.ts';
import type { HttpsClient } from './support.ts';

const RUNS = 20;
const POOL = 2;
const users = ['a', 'b', 'c', 'd'].map((name) => ({ email: `${name}@example.com`, password: `pw-${name}` }));

let dataDir: string;
let demo: DemoCourse;
let stack: LocalStack;
let client: HttpsClient;
const callers: ApiCaller[] = [];

// The pool is under test here, not the browser (run-course-test and the demo course tests cover it):
// twenty runs each starting a Chromium would only make the wait longer on a 2-core machine.
const chromiumSetting = process.env.CTPO_CHROMIUM;

beforeAll(async () => {
  process.env.CTPO_CHROMIUM = 'off';
  demo = await startDemoCourse({ port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1' });
  ({ dataDir, stack } = await startTestStack('ctpo-many-', {
    users,
    poolSize: POOL,
    maxActiveRunsPerUser: RUNS / users.length,
  }));
  client = httpsClient(stack.ca);
  for (const user of users) {
    const tokens = await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, ...user });
    callers.push(apiCaller(client, stack.origin, tokens.access_token));
  }
}, 120_000);

afterAll(async () => {
  if (chromiumSetting === undefined) delete process.env.CTPO_CHROMIUM;
  else process.env.CTPO_CHROMIUM = chromiumSetting;
  await stack?.close();
  await client?.close();
  await demo?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`${RUNS} runs submitted at once`, () => {
  it('are all accepted, all finish with a report, none lost, none stuck, at most the pool size at once', async () => {
    let mostRunning = 0;
    let mostQueued = 0;
    const sampler = setInterval(() => {
      const { running, queued } = stack.runner.stats();
      mostRunning = Math.max(mostRunning, running);
      mostQueued = Math.max(mostQueued, queued);
    }, 10);

    try {
      const started = await Promise.all(
        Array.from({ length: RUNS }, (_, index) =>
          callers[index % callers.length]!.startRun({
            USER_NAME: DEMO_USER,
            PASSWORD: DEMO_PASSWORD,
            CLIENT_URL: demo.origin,
            ORG_UNIT_ID: DEMO_ORG_UNIT,
            CLIENT_NAME: `Load ${index + 1}`,
            MODULES: DEMO_MODULES.filter((module) => module.id % 100 === 0).map((module) => module.id),
          }),
        ),
      );
      expect(started.map((run) => run.status)).toEqual(Array(RUNS).fill(202));
      expect(new Set(started.map((run) => run.taskArn)).size).toBe(RUNS);

      const ended = await Promise.all(started.map((run, index) => callers[index % callers.length]!.waitForEnd(run.taskArn, 540_000, 250)));
      expect(ended.map((body) => body.status)).toEqual(Array(RUNS).fill('SUCCEEDED'));
      for (const run of started) {
        expect(existsSync(join(dataDir, 'reports', `${run.filename}.html`)), run.filename).toBe(true);
        expect(existsSync(join(dataDir, 'reports', `${run.filename}.json`)), run.filename).toBe(true);
      }
    } finally {
      clearInterval(sampler);
    }

    const stored = await stack.jobs.listByStatus(JOB_STATUSES);
    expect(stored).toHaveLength(RUNS);
    expect(stored.every((job) => job.status === 'SUCCEEDED')).toBe(true);
    // A run's process exits a moment after its job has ended: then nothing runs or waits.
    await stack.runner.idle();
    expect(stack.runner.stats()).toEqual({ running: 0, queued: 0 });
    expect(mostRunning).toBeLessThanOrEqual(POOL);
    // They did queue: the pool was full while the others waited.
    expect(mostRunning).toBe(POOL);
    expect(mostQueued).toBeGreaterThan(0);
  }, 600_000);
});
