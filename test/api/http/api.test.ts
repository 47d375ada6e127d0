// The QA API as the app meets it: the real local server over HTTPS, real tokens from the identity
// stand-in, jobs in a real SQLite file. Runs use a scripted worker (see test/api/jobs/fixtures).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOB_STATUSES } from '../../../api/jobs/job-status.ts';
import { errorAnswer, jobStatusAnswer, runTestsAnswer } from '../../../api/http/contract.ts';
import { signJwt } from '../../../api/local/identity/jwt.ts';
import { generateSigningKey, loadOrCreateSigningKey } from '../../../api/local/identity/signing-key.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { decodeJwtPayload, httpsClient, sendJson, signIn, startTestStack } from '../local/support.ts';
import type { HttpsClient, SendOptions, Sent, SignInSetup } from '../local/support.ts';

// Real servers, worker threads and key generation on a machine shared with other test runs.
// Safety nets only: on a busy machine a run here can take many times its usual second or two.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const scriptedWorker = new URL('../jobs/fixtures/scripted-job-worker.ts', import.meta.url);
const DEV_ORIGIN = 'http://localhost:5173';

let dir: string;
let stack: LocalStack;
let client: HttpsClient;
let clock = Date.now();
let tokenA: string;
let tokenB: string;
let tokenC: string;
let expiredToken: string;
let idToken: string;

function setupFor(email: string): SignInSetup {
  return { client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, email, password: 'pw-' + email };
}

const users = ['a@example.com', 'b@example.com', 'c@example.com'].map((email) => ({ email, password: 'pw-' + email }));

const goodRun = {
  USER_NAME: 'qa.tester',
  PASSWORD: 'brightspace-secret-9',
  CLIENT_URL: 'https://acme.example.com',
  ORG_UNIT_ID: 6606,
  CLIENT_NAME: 'sleep-100',
  MODULES: [11, 12],
};

function call(method: string, path: string, options: SendOptions = {}): Promise<Sent> {
  return sendJson(client, method, `${stack.origin}${path}`, options);
}

async function allJobs() {
  return stack.jobs.listByStatus(JOB_STATUSES);
}

async function waitForStatus(token: string, id: string, wanted: string[]): Promise<Record<string, unknown>> {
  // A safety net, not a measure: a busy machine can take many times the usual few hundred ms.
  const deadline = Date.now() + 100_000;
  while (Date.now() < deadline) {
    const { body } = await call('GET', `/api/job-status/${encodeURIComponent(id)}`, { token });
    if (wanted.includes(body.status as string)) return body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${wanted.join('/')}`);
}

beforeAll(async () => {
  ({ dataDir: dir, stack } = await startTestStack('ctpo-api-', {
    // The dev server's origin, as `npm run dev` has the stack trust it while it runs.
    devOrigins: [DEV_ORIGIN],
    users,
    allowPrivateTargets: false,
    workerEntry: scriptedWorker,
    poolSize: 1,
    maxQueued: 2,
    maxActiveRunsPerUser: 2,
    identityNow: () => clock,
    // Fake DNS (no network here): the client site is public, the sneaky one points inside.
    resolve: async (host) => {
      if (host === 'acme.example.com') return [{ address: '93.184.215.14', family: 4 }];
      if (host === 'sneaky.example.com') return [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.7', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    },
  }));
  client = httpsClient(stack.ca);
  tokenA = (await signIn(setupFor('a@example.com'))).access_token;
  tokenB = (await signIn(setupFor('b@example.com'))).access_token;
  tokenC = (await signIn(setupFor('c@example.com'))).access_token;
  const tokens = await signIn(setupFor('a@example.com'));
  idToken = tokens.id_token;
  clock = Date.now() - 2 * 3600 * 1000;
  expiredToken = (await signIn(setupFor('a@example.com'))).access_token;
  clock = Date.now();
});

afterAll(async () => {
  await stack?.close();
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a run, as the app drives it', () => {
  it('starts with 202, is followed to SUCCEEDED, then points at the report', async () => {
    const started = await call('POST', '/api/run-tests', { token: tokenA, body: goodRun, headers: { origin: DEV_ORIGIN } });
    expect(started.status).toBe(202);
    expect(started.headers.get('access-control-allow-origin')).toBe(DEV_ORIGIN);
    expect(started.headers.get('access-control-allow-credentials')).toBe('true');
    expect(started.body).toEqual({
      message: 'Test run started for sleep-100: 2 modules of course 6606.',
      taskArn: expect.any(String),
      filename: expect.stringMatching(/^sleep-100-ou6606-\d{8}t\d{6}z-[a-z2-7]{16}$/),
    });
    // The app reads the answer with the wire contract, and loses nothing of it.
    expect(runTestsAnswer.parse(started.body)).toEqual(started.body);
    const id = started.body.taskArn as string;
    const job = await stack.jobs.get(id);
    expect(job).toMatchObject({ owner: decodeJwtPayload(tokenA).sub, siteUrl: 'https://acme.example.com', orgUnitId: 6606, modules: [11, 12] });
    expect(JSON.stringify(job)).not.toContain(goodRun.PASSWORD);

    const early = await call('GET', `/api/job-status/${encodeURIComponent(id)}`, { token: tokenA });
    expect(early.status).toBe(200);
    expect(early.body.outputUrl).toBeUndefined();
    const done = await waitForStatus(tokenA, id, ['SUCCEEDED', 'FAILED']);
    expect(done).toMatchObject({ status: 'SUCCEEDED', progress: { done: 2, total: 2 } });
    // The reports address with a link for this report only (api/http/report-capability.ts).
    expect(done.outputUrl).toMatch(new RegExp(`^${stack.origin.replace(/[.]/g, '\\.')}/reports/[a-z0-9]{1,16}\\.[1-9][0-9]+\\.[1-9][0-9]+\\.[0-9a-f]{16}\\.[0-9a-f]{64}/$`));
    expect(done.startedAt).toEqual(expect.any(String));
    expect(done.updatedAt).toEqual(expect.any(String));
    expect(done.reason).toBeUndefined();
    expect(jobStatusAnswer.parse(done)).toEqual(done);
  });

  it('records "check everything again" (FULL) on the job the run carries out, and only when asked', async () => {
    const full = await call('POST', '/api/run-tests', { token: tokenA, body: { ...goodRun, CLIENT_NAME: 'sleep-10', FULL: true } });
    expect(full.status).toBe(202);
    expect(await stack.jobs.get(full.body.taskArn as string)).toMatchObject({ full: true });
    await waitForStatus(tokenA, full.body.taskArn as string, ['SUCCEEDED', 'FAILED']);
    const reused = await call('POST', '/api/run-tests', { token: tokenA, body: { ...goodRun, CLIENT_NAME: 'sleep-10', FULL: false } });
    expect(reused.status).toBe(202);
    expect(await stack.jobs.get(reused.body.taskArn as string)).not.toHaveProperty('full');
    await waitForStatus(tokenA, reused.body.taskArn as string, ['SUCCEEDED', 'FAILED']);
  });

  it('reports a failed run with its reason and no report address', async () => {
    const started = await call('POST', '/api/run-tests', { token: tokenA, body: { ...goodRun, CLIENT_NAME: 'fail' } });
    const done = await waitForStatus(tokenA, started.body.taskArn as string, ['SUCCEEDED', 'FAILED']);
    expect(done).toMatchObject({ status: 'FAILED', reason: 'Sign-in to Brightspace failed: check the user name and password.' });
    expect(done.outputUrl).toBeUndefined();
  });

  it('gives every run its own unguessable file name', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const started = await call('POST', '/api/run-tests', { token: tokenA, body: { ...goodRun, CLIENT_NAME: 'sleep-10' } });
      names.add(started.body.filename as string);
      await waitForStatus(tokenA, started.body.taskArn as string, ['SUCCEEDED']);
    }
    expect(names.size).toBe(2);
  });
});

describe('the token check', () => {
  const routes = [
    ['POST', '/api/toc'],
    ['POST', '/api/run-tests'],
    ['GET', '/api/job-status/some-job'],
  ] as const;

  function forgedTokens(): Record<string, string> {
    const claims = decodeJwtPayload(tokenA);
    const realKey = loadOrCreateSigningKey(join(dir, 'identity-signing-key.pem'));
    const otherKey = generateSigningKey();
    return {
      'another key': signJwt(claims, otherKey),
      'another key, same key id': signJwt(claims, { ...otherKey, kid: realKey.kid }),
      'a token of another client': signJwt({ ...claims, client_id: 'some-other-app' }, realKey),
      'a token of another issuer': signJwt({ ...claims, iss: 'https://evil.test/ca-central-1_Local' }, realKey),
      'an altered payload': `${tokenA.split('.')[0]}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${tokenA.split('.')[2]}`,
    };
  }

  it.each(routes)('%s %s refuses a missing, malformed, expired, forged, id or other-client token with 401', async (method, path) => {
    const before = await allJobs();
    const cases: [string, Record<string, string>][] = [
      ['no header', {}],
      ['a Basic header', { authorization: 'Basic cWE6cXE=' }],
      ['a bearer that is not a JWT', { authorization: 'Bearer not-a-token' }],
      ['an expired token', { authorization: `Bearer ${expiredToken}` }],
      ['an id token', { authorization: `Bearer ${idToken}` }],
      ...Object.entries(forgedTokens()).map(([name, token]): [string, Record<string, string>] => [name, { authorization: `Bearer ${token}` }]),
    ];
    for (const [name, headers] of cases) {
      const answer = await call(method, path, { headers, body: method === 'POST' ? goodRun : undefined });
      expect(answer.status, name).toBe(401);
      expect(answer.body.code, name).toBe('unauthorized');
      expect(answer.headers.get('www-authenticate'), name).toBe('Bearer');
      expect(answer.body.message, name).toMatch(/Sign in/);
    }
    expect((await call(method, path, { headers: { authorization: `Bearer ${expiredToken}` } })).body.message).toBe('Your session has expired. Sign in again.');
    expect(await allJobs()).toEqual(before);
  });
});

describe('bad input', () => {
  it.each([
    ['wrong types', { ...goodRun, MODULES: '11,12', USER_NAME: 7 }, 400, /USER_NAME must be text.*MODULES must be a list/],
    ['a non-numeric org unit', { ...goodRun, ORG_UNIT_ID: 'course-6606' }, 400, /^ORG_UNIT_ID must be a positive whole number/],
    ['an empty module list', { ...goodRun, MODULES: [] }, 400, /MODULES must list at least one/],
    ['a private-address site', { ...goodRun, CLIENT_URL: 'https://192.168.1.20' }, 400, /private, local or reserved network address/],
    ['a loopback site', { ...goodRun, CLIENT_URL: 'https://[::1]:8444' }, 400, /private, local or reserved network address/],
    ['a metadata-service site', { ...goodRun, CLIENT_URL: 'https://169.254.169.254/latest' }, 400, /private, local or reserved network address/],
    ['a public name that resolves to a private address', { ...goodRun, CLIENT_URL: 'https://sneaky.example.com' }, 400, /private, local or reserved network address/],
    ['a name with no DNS answer', { ...goodRun, CLIENT_URL: 'https://no-such-site.example.com' }, 502, /^no-such-site.example.com could not be found/],
    ['an array body', [goodRun], 400, /must be a JSON object/],
  ])('run-tests answers %s with a clear error and records nothing', async (_name, body, status, message) => {
    const before = await allJobs();
    const answer = await call('POST', '/api/run-tests', { token: tokenA, body });
    expect(answer.status).toBe(status);
    expect(answer.body.message).toMatch(message);
    expect(typeof answer.body.code).toBe('string');
    expect(await allJobs()).toEqual(before);
  });

  it('refuses a body over 64 KiB with 413, a non-JSON body with 415 and broken JSON with 400', async () => {
    const before = await allJobs();
    const big = await call('POST', '/api/run-tests', { token: tokenA, body: { ...goodRun, PAD: 'x'.repeat(100 * 1024) } });
    expect(big).toMatchObject({ status: 413, body: { code: 'payload_too_large', message: expect.stringContaining('64 KiB') } });
    const huge = await call('POST', '/api/toc', { token: tokenA, raw: 'y'.repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    const form = await call('POST', '/api/run-tests', { token: tokenA, raw: 'USER_NAME=qa', contentType: 'application/x-www-form-urlencoded' });
    expect(form).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    const broken = await call('POST', '/api/toc', { token: tokenA, raw: '{"ORG_UNIT_ID": 66', contentType: 'application/json' });
    expect(broken).toMatchObject({ status: 400, body: { code: 'invalid_input', message: 'The request body is not valid JSON.' } });
    expect(await allJobs()).toEqual(before);
  });

  it('toc answers bad fields with 400 before reaching any site', async () => {
    const answer = await call('POST', '/api/toc', { token: tokenA, body: { ORG_UNIT_ID: 'abc', CLIENT_URL: 'https://10.1.2.3', USER_NAME: '', PASSWORD: 5 } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/ORG_UNIT_ID.*CLIENT_URL.*USER_NAME.*PASSWORD/);
  });

  it('job-status answers 404 for an unknown job, 403 for someone else’s, 400 for a malformed id', async () => {
    const unknown = await call('GET', '/api/job-status/no-such-job', { token: tokenA });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found', message: 'There is no job with this identifier.' } });
    expect(errorAnswer.parse(unknown.body)).toEqual(unknown.body);
    const started = await call('POST', '/api/run-tests', { token: tokenA, body: { ...goodRun, CLIENT_NAME: 'sleep-10' } });
    const id = started.body.taskArn as string;
    const theirs = await call('GET', `/api/job-status/${encodeURIComponent(id)}`, { token: tokenB });
    expect(theirs).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(JSON.stringify(theirs.body)).not.toContain('outputUrl');
    expect((await call('GET', '/api/job-status/%E0%A4%A', { token: tokenA })).status).toBe(400);
    await waitForStatus(tokenA, id, ['SUCCEEDED']);
  });

  it('answers unknown routes with 404 and wrong methods with 405, as JSON', async () => {
    expect(await call('GET', '/api/nothing-here', { token: tokenA })).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const wrong = await call('GET', '/api/run-tests', { token: tokenA });
    expect(wrong).toMatchObject({ status: 405, body: { code: 'method_not_allowed' } });
    expect(wrong.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('is still alive and serving after all of the above', async () => {
    expect((await call('GET', '/api/job-status/no-such-job', { token: tokenA })).status).toBe(404);
  });
});

describe('limits', () => {
  it('answers 429 above the per-user active-run limit, and 503 when the queue is full, recording nothing', async () => {
    // Runs of the tests above have ended; their processes leave the pool's slots once they exit.
    await stack.runner.idle();
    // One slot and two queue places: user A's two runs take the slot and one place.
    const first = await call('POST', '/api/run-tests', { token: tokenA, body: { ...goodRun, CLIENT_NAME: 'hang' } });
    const second = await call('POST', '/api/run-tests', { token: tokenA, body: { ...goodRun, CLIENT_NAME: 'hang' } });
    expect([first.status, second.status]).toEqual([202, 202]);
    let before = await allJobs();
    const third = await call('POST', '/api/run-tests', { token: tokenA, body: goodRun });
    expect(third).toMatchObject({ status: 429, body: { code: 'too_many_runs', message: 'You already have 2 test runs in progress. Wait for one to finish, then start this one.' } });
    expect(await allJobs()).toEqual(before);

    const ofB = await call('POST', '/api/run-tests', { token: tokenB, body: { ...goodRun, CLIENT_NAME: 'hang' } });
    expect(ofB.status).toBe(202);
    before = await allJobs();
    const ofC = await call('POST', '/api/run-tests', { token: tokenC, body: goodRun });
    expect(ofC).toMatchObject({ status: 503, body: { code: 'overloaded' } });
    expect(ofC.headers.get('retry-after')).toBe('60');
    expect(await allJobs()).toEqual(before);

    await waitForStatus(tokenA, first.body.taskArn as string, ['RUNNING']);
    const statuses = await Promise.all([second, ofB].map(async (run, index) => (await call('GET', `/api/job-status/${run.body.taskArn as string}`, { token: index < 1 ? tokenA : tokenB })).body.status));
    expect(statuses).toEqual(['PENDING', 'PENDING']);
  });
});

describe('CORS', () => {
  it('answers the preflight for the configured app origins only', async () => {
    const preflight = (origin: string) =>
      call('OPTIONS', '/api/run-tests', { headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    const dev = await preflight(DEV_ORIGIN);
    expect(dev.status).toBe(204);
    expect(dev.headers.get('access-control-allow-origin')).toBe(DEV_ORIGIN);
    expect(dev.headers.get('access-control-allow-headers')).toContain('authorization');
    const self = await preflight(stack.origin);
    expect(self.headers.get('access-control-allow-origin')).toBe(stack.origin);
    const evil = await preflight('https://evil.test');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const read = await call('GET', '/api/job-status/x', { token: tokenA, headers: { origin: 'https://evil.test' } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('cancelling a run (DELETE /api/jobs/{id})', () => {
  it('ends its owner’s run FAILED "Cancelled" and stops it, waiting or running; another user’s job is unknown; an ended one is a conflict', async () => {
    // The runs the limits left behind: A's first holds the one slot, A's second and B's wait.
    const active = await allJobs();
    const [running, waitingOfA] = active.filter((job) => job.owner === decodeJwtPayload(tokenA).sub && !['SUCCEEDED', 'FAILED'].includes(job.status)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const waitingOfB = active.find((job) => job.owner === decodeJwtPayload(tokenB).sub && job.status === 'PENDING');
    expect([running?.status, waitingOfA?.status, waitingOfB?.status]).toEqual(['RUNNING', 'PENDING', 'PENDING']);
    const cancel = (id: string, token?: string) => call('DELETE', `/api/jobs/${encodeURIComponent(id)}`, token === undefined ? {} : { token });

    expect(await cancel(running!.id)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    // Not B's to cancel, nor to learn about: the same answer as for a job that does not exist.
    const theirs = await cancel(running!.id, tokenB);
    expect(theirs).toMatchObject({ status: 404, body: { code: 'not_found', message: 'There is no job with this identifier.' } });
    expect((await cancel('no-such-job', tokenA)).body).toEqual(theirs.body);
    expect(await call('DELETE', '/api/jobs/%E0%A4%A', { token: tokenA })).toMatchObject({ status: 400, body: { code: 'invalid_input' } });
    expect(await call('GET', `/api/jobs/${running!.id}`, { token: tokenA })).toMatchObject({ status: 405, body: { code: 'method_not_allowed' } });
    expect((await stack.jobs.get(running!.id))?.status).toBe('RUNNING');

    const cancelled = await cancel(running!.id, tokenA);
    // Its status as job-status gives it, naming whose course it was.
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'FAILED', reason: 'Cancelled', client: 'hang', orgUnitId: 6606, finishedAt: expect.any(String) } });
    expect(jobStatusAnswer.parse(cancelled.body)).toEqual(cancelled.body);
    expect(await waitForStatus(tokenA, running!.id, ['FAILED'])).toMatchObject({ reason: 'Cancelled' });
    expect((await stack.jobs.get(running!.id))?.finishedAt).toEqual(expect.any(String));
    // Its process was stopped: the slot it held goes to the next run waiting, A's second.
    await waitForStatus(tokenA, waitingOfA!.id, ['RUNNING']);

    // A run cancelled while it waits never starts.
    expect(await cancel(waitingOfB!.id, tokenB)).toMatchObject({ status: 200, body: { status: 'FAILED', reason: 'Cancelled' } });
    expect(await cancel(waitingOfA!.id, tokenA)).toMatchObject({ status: 200, body: { status: 'FAILED', reason: 'Cancelled' } });
    await stack.runner.idle();
    const ofB = await stack.jobs.get(waitingOfB!.id);
    expect(ofB).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    expect(ofB?.startedAt).toBeUndefined();

    // Over already: nothing to cancel, and nothing changes.
    const again = await cancel(running!.id, tokenA);
    expect(again).toMatchObject({ status: 409, body: { code: 'conflict', message: 'This run has already ended: there is nothing to cancel.' } });
    expect(await stack.jobs.get(running!.id)).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
  });

  it('answers the cancel in the caller’s language', async () => {
    const started = await call('POST', '/api/run-tests', { token: tokenA, body: { ...goodRun, CLIENT_NAME: 'hang', LANGUAGE: 'fr-FR' } });
    const id = started.body.taskArn as string;
    await waitForStatus(tokenA, id, ['RUNNING']);
    expect(await call('DELETE', `/api/jobs/${id}`, { token: tokenA })).toMatchObject({ status: 200, body: { status: 'FAILED', reason: 'Annulée' } });
    await stack.runner.idle();
    const over = await call('DELETE', `/api/jobs/${id}`, { token: tokenA, headers: { 'accept-language': 'de' } });
    expect(over).toMatchObject({ status: 409, body: { message: 'Dieser Testlauf ist bereits beendet: Es gibt nichts abzubrechen.' } });
  });
});
