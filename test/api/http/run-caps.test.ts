// The caps on unfinished runs through the real local server and the SQLite store: requests that race
// each other never start more runs than one user, or the whole deployment, may have.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOB_STATUSES } from '../../../api/jobs/job-status.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { httpsClient, signIn, startTestStack } from '../local/support.ts';
import type { HttpsClient } from '../local/support.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const scriptedWorker = new URL('../jobs/fixtures/scripted-job-worker.ts', import.meta.url);
const users = ['a', 'b', 'c', 'd'].map((name) => ({ email: `${name}@example.com`, password: `pw-${name}` }));
// 'hang': each run holds its place until the server stops.
const run = { USER_NAME: 'qa', PASSWORD: 'pw', CLIENT_URL: 'https://acme.example.com', ORG_UNIT_ID: 6606, CLIENT_NAME: 'hang', MODULES: [1] };

let dir: string;
let stack: LocalStack;
let client: HttpsClient;
const tokens: string[] = [];

beforeAll(async () => {
  ({ dataDir: dir, stack } = await startTestStack('ctpo-caps-', {
    users,
    allowPrivateTargets: false,
    workerEntry: scriptedWorker,
    poolSize: 1,
    maxQueued: 50,
    maxActiveRunsPerUser: 3,
    maxActiveRuns: 5,
    stopGraceMs: 200,
    resolve: async () => [{ address: '93.184.215.14', family: 4 }],
  }));
  client = httpsClient(stack.ca);
  for (const user of users) {
    tokens.push((await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, ...user })).access_token);
  }
});

afterAll(async () => {
  await stack?.close();
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function startRun(token: string): Promise<{ status: number; body: { code?: string; message?: string } }> {
  const response = await client.fetch(`${stack.origin}/api/run-tests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(run),
  });
  return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
}

describe('the caps on unfinished runs', () => {
  it('starts 3 runs for a user who sends 20 requests at once, and answers the rest 429', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => startRun(tokens[0]!)));
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(17);
    expect(refused[0]!.body).toEqual({ code: 'too_many_runs', message: 'You already have 3 test runs in progress. Wait for one to finish, then start this one.' });
    expect(await stack.jobs.listByStatus(JOB_STATUSES)).toHaveLength(3);
  });

  it('starts no more than the deployment takes when several users ask at once', async () => {
    const answers = await Promise.all(tokens.slice(1).flatMap((token) => [startRun(token), startRun(token), startRun(token)]));
    // 3 of the 5 places are taken by the first user's runs.
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(7);
    expect(refused[0]!.body.message).toBe('CTPO is already running 5 test runs, as many as it takes at once. Start this one again in a few minutes.');
    expect(await stack.jobs.listByStatus(JOB_STATUSES)).toHaveLength(5);
  });
});
