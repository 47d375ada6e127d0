// The local stack's "private targets" switch through the real server: it holds for a course on this
// machine or its network, never for a public site, whose runs keep to https and the public guard.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOB_STATUSES } from '../../../api/jobs/job-status.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { httpsClient, sendJson, signIn, startTestStack } from '../local/support.ts';
import type { HttpsClient } from '../local/support.ts';

// Real servers and key generation on a machine shared with other test runs: safety nets only.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const scriptedWorker = new URL('../jobs/fixtures/scripted-job-worker.ts', import.meta.url);
const user = { email: 'qa@example.com', password: 'pw-qa' };
// 'hang': a run holds its place until the server stops.
const run = { USER_NAME: 'qa.tester', PASSWORD: 'brightspace-secret', ORG_UNIT_ID: 6606, CLIENT_NAME: 'hang', MODULES: [1] };

let dir: string;
let stack: LocalStack;
let client: HttpsClient;
let token: string;

beforeAll(async () => {
  ({ dataDir: dir, stack } = await startTestStack('ctpo-local-switch-', {
    users: [user],
    // The switch as the local stack has it by default.
    allowPrivateTargets: true,
    workerEntry: scriptedWorker,
    stopGraceMs: 200,
    // Fake DNS (no network here): a public school, a test instance on the LAN, one that is both.
    resolve: async (host) => {
      if (host === 'school.example.com') return [{ address: '93.184.215.14', family: 4 }];
      if (host === 'lan.example') return [{ address: '10.0.0.7', family: 4 }];
      if (host === 'mixed.example') return [{ address: '10.0.0.7', family: 4 }, { address: '93.184.215.14', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    },
  }));
  client = httpsClient(stack.ca);
  token = (await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, ...user })).access_token;
});

afterAll(async () => {
  await stack?.close();
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

function call(path: string, site: string) {
  return sendJson(client, 'POST', `${stack.origin}${path}`, { token, body: { ...run, CLIENT_URL: site } });
}

describe('the local switch, run by run', () => {
  it('refuses a public site over plain http: the password would cross the network unencrypted', async () => {
    const before = await stack.jobs.listByStatus(JOB_STATUSES);
    const started = await call('/api/run-tests', 'http://school.example.com');
    expect(started.status).toBe(400);
    expect(started.body.message).toMatch(/https/);
    // (POST /api/toc keeps to the same rule in the engine's reader: load-table-of-contents.test.ts,
    // where no request can leave the machine if it ever stops holding.)
    expect(await stack.jobs.listByStatus(JOB_STATUSES)).toEqual(before);
  });

  it('refuses a site with a public address among private ones', async () => {
    const started = await call('/api/run-tests', 'http://mixed.example');
    expect(started.status).toBe(400);
  });

  it('starts a run of a public site over https, and of a site on the local network over http', async () => {
    expect((await call('/api/run-tests', 'https://school.example.com')).status).toBe(202);
    expect((await call('/api/run-tests', 'http://lan.example')).status).toBe(202);
  });
});
