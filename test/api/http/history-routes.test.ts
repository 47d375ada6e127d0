// GET /api/jobs and GET/PUT/DELETE /api/dismissals as the app meets them: the real local server
// over HTTPS, real tokens from the identity stand-in, the real SQLite stores. Runs use the scripted
// worker (test/api/jobs/fixtures); the comparison itself is tested with real runs elsewhere.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { dismissalItem, dismissalsAnswer, jobsAnswer, restoreAnswer } from '../../../api/http/contract.ts';
import { aJob } from '../support/job-record.ts';
import { decodeJwtPayload, httpsClient, sendJson, signIn, startTestStack } from '../local/support.ts';
import type { HttpsClient, SendOptions, Sent, SignInSetup } from '../local/support.ts';

vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 });

const scriptedWorker = new URL('../jobs/fixtures/scripted-job-worker.ts', import.meta.url);
const DEV_ORIGIN = 'http://localhost:5173';
const SITE = 'https://acme.example.com';
const FINGERPRINT = '0123456789abcdef0123';

let dir: string;
let stack: LocalStack;
let client: HttpsClient;
let tokenA: string;
let tokenB: string;
let subA: string;

const users = ['a@example.com', 'b@example.com'].map((email) => ({ email, password: 'pw-' + email }));
const setupFor = (email: string): SignInSetup => ({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, email, password: 'pw-' + email });

function call(method: string, path: string, options: SendOptions = {}): Promise<Sent> {
  return sendJson(client, method, `${stack.origin}${path}`, options);
}

const query = (values: Record<string, string>) => `?${new URLSearchParams(values).toString()}`;

beforeAll(async () => {
  ({ dataDir: dir, stack } = await startTestStack('ctpo-history-api-', {
    // The dev server's origin, as `npm run dev` has the stack trust it while it runs.
    devOrigins: [DEV_ORIGIN],
    users,
    allowPrivateTargets: false,
    workerEntry: scriptedWorker,
    poolSize: 1,
    resolve: async () => [{ address: '93.184.215.14', family: 4 }],
  }));
  client = httpsClient(stack.ca);
  tokenA = (await signIn(setupFor('a@example.com'))).access_token;
  tokenB = (await signIn(setupFor('b@example.com'))).access_token;
  subA = decodeJwtPayload(tokenA).sub as string;
});

afterAll(async () => {
  await stack?.close();
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /api/jobs', () => {
  it('lists a run the caller started, with what was asked and, once it succeeded, its report address', async () => {
    const started = await call('POST', '/api/run-tests', {
      token: tokenA,
      body: {
        USER_NAME: 'qa.tester',
        PASSWORD: 'brightspace-secret-9',
        CLIENT_URL: SITE,
        ORG_UNIT_ID: 6606,
        CLIENT_NAME: 'sleep-50',
        MODULES: [11, 12],
        EXCLUDE_MODULES: [121],
        // Titles of other modules than the run's are not kept.
        MODULE_TITLES: { 11: 'Unit 1', 12: 'Unit 2', 121: 'Lab 2.1', 99: 'Elsewhere' },
        SCOPES: ['quizzes'],
        LANGUAGE: 'fr-CA',
      },
    });
    expect(started.status).toBe(202);
    await stack.runner.idle();

    const listed = await call('GET', '/api/jobs', { token: tokenA, headers: { origin: DEV_ORIGIN } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(DEV_ORIGIN);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.body.nextCursor).toBeUndefined();
    const [run] = listed.body.jobs as Record<string, unknown>[];
    expect(run).toEqual({
      taskArn: started.body.taskArn,
      filename: started.body.filename,
      status: 'SUCCEEDED',
      client: 'sleep-50',
      siteUrl: SITE,
      orgUnitId: 6606,
      modules: [11, 12],
      excludeModules: [121],
      moduleTitles: { 11: 'Unit 1', 12: 'Unit 2', 121: 'Lab 2.1' },
      scopes: ['quizzes'],
      language: 'fr-CA',
      // The run's owner gets back the user name it signed in with, to run it again.
      userName: 'qa.tester',
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      // A link signed for this run's report, as job-status hands it (api/http/report-links.ts).
      outputUrl: expect.stringMatching(new RegExp(`^${stack.origin.replace(/[.]/g, '\\.')}/reports/[a-z0-9]{1,16}\\.[1-9][0-9]+\\.[1-9][0-9]+\\.[0-9a-f]{16}\\.[0-9a-f]{64}/$`)),
    });
    // The app reads the answer with the wire contract, and loses nothing of it.
    expect(jobsAnswer.parse(listed.body)).toEqual(listed.body);
    // Never the password, in any form.
    expect(JSON.stringify(listed.body)).not.toMatch(/brightspace-secret-9|PASSWORD|USER_NAME/);
    // Nor the user name to anyone else.
    expect((await call('GET', '/api/jobs', { token: tokenB })).body).toEqual({ jobs: [] });
  });

  it('pages newest first with an opaque cursor, only through the caller’s own runs', async () => {
    for (let index = 0; index < 5; index++) {
      await stack.jobs.create(aJob(`page-a-${index}`, { owner: subA, createdAt: new Date(Date.UTC(2030, 0, 1, 10, index)).toISOString(), status: 'FAILED', reason: 'Sign-in failed.' }));
      await stack.jobs.create(aJob(`page-b-${index}`, { owner: 'someone-else', createdAt: new Date(Date.UTC(2030, 0, 1, 10, index)).toISOString() }));
    }
    const first = await call('GET', `/api/jobs${query({ limit: '2' })}`, { token: tokenA });
    expect((first.body.jobs as { taskArn: string }[]).map((job) => job.taskArn)).toEqual(['page-a-4', 'page-a-3']);
    expect((first.body.jobs as Record<string, unknown>[])[0]).toMatchObject({ status: 'FAILED', reason: 'Sign-in failed.' });
    expect(first.body.nextCursor).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+$/));

    const second = await call('GET', `/api/jobs${query({ limit: '2', cursor: first.body.nextCursor as string })}`, { token: tokenA });
    expect((second.body.jobs as { taskArn: string }[]).map((job) => job.taskArn)).toEqual(['page-a-2', 'page-a-1']);
    const third = await call('GET', `/api/jobs${query({ limit: '2', cursor: second.body.nextCursor as string })}`, { token: tokenA });
    expect((third.body.jobs as { taskArn: string }[]).map((job) => job.taskArn)).toEqual(['page-a-0', expect.any(String)]);
    // Someone else using this cursor sees only their own runs after that point: none.
    expect((await call('GET', `/api/jobs${query({ cursor: first.body.nextCursor as string })}`, { token: tokenB })).body).toEqual({ jobs: [] });
  });

  it('refuses a bad limit or cursor with a clear message, and a missing or bad token with 401', async () => {
    for (const limit of ['0', '101', 'ten', '-1', '1.5']) {
      const refused = await call('GET', `/api/jobs${query({ limit })}`, { token: tokenA });
      expect(refused.status, limit).toBe(400);
      expect(refused.body).toEqual({ code: 'invalid_input', message: 'limit must be a whole number from 1 to 100.' });
    }
    const forged = Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url');
    for (const cursor of ['%%%', forged, 'x'.repeat(700)]) {
      const refused = await call('GET', `/api/jobs${query({ cursor })}`, { token: tokenA });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('cursor is not valid: send the nextCursor of the previous page as it came.');
    }
    expect((await call('GET', '/api/jobs')).status).toBe(401);
    expect((await call('GET', '/api/jobs', { token: 'a.b.c' })).status).toBe(401);
    const wrongMethod = await call('POST', '/api/jobs', { token: tokenA, body: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, OPTIONS');
  });

  it('answers the app’s preflight for the new routes', async () => {
    const preflight = await call('OPTIONS', '/api/dismissals', { headers: { origin: DEV_ORIGIN, 'access-control-request-method': 'PUT' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, PUT, DELETE, OPTIONS');
  });
});

describe('/api/dismissals', () => {
  const course = { siteUrl: SITE, orgUnitId: '6606' };

  it('dismisses with a reason, under the caller’s e-mail, lists it for that course only, and restores it', async () => {
    const put = await call('PUT', '/api/dismissals', {
      token: tokenA,
      body: { siteUrl: `${SITE}/d2l/home/6606`, orgUnitId: 6606, fingerprint: FINGERPRINT, reason: '  The vendor fixes this in June.  ' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ fingerprint: FINGERPRINT, by: 'a@example.com', at: expect.any(String), reason: 'The vendor fixes this in June.' });

    const listed = await call('GET', `/api/dismissals${query(course)}`, { token: tokenA });
    expect(listed.body).toEqual({ dismissals: [put.body] });
    expect(dismissalItem.parse(put.body)).toEqual(put.body);
    expect(dismissalsAnswer.parse(listed.body)).toEqual(listed.body);
    // The site is kept by its origin: the same course however its address was written.
    expect((await call('GET', `/api/dismissals${query({ ...course, siteUrl: `${SITE}/` })}`, { token: tokenA })).body).toEqual({ dismissals: [put.body] });
    expect((await call('GET', `/api/dismissals${query({ ...course, orgUnitId: '7707' })}`, { token: tokenA })).body).toEqual({ dismissals: [] });
    expect((await call('GET', `/api/dismissals${query(course)}`, { token: tokenB })).body).toEqual({ dismissals: [] });

    // Someone else cannot restore it: for them there is nothing to restore.
    const theirs = await call('DELETE', `/api/dismissals${query({ ...course, fingerprint: FINGERPRINT })}`, { token: tokenB });
    expect(theirs.body).toEqual({ fingerprint: FINGERPRINT, restored: false });
    expect((await call('GET', `/api/dismissals${query(course)}`, { token: tokenA })).body).toEqual({ dismissals: [put.body] });

    const restored = await call('DELETE', `/api/dismissals${query({ ...course, fingerprint: FINGERPRINT })}`, { token: tokenA });
    expect(restored).toMatchObject({ status: 200, body: { fingerprint: FINGERPRINT, restored: true } });
    expect(restoreAnswer.parse(restored.body)).toEqual(restored.body);
    expect((await call('GET', `/api/dismissals${query(course)}`, { token: tokenA })).body).toEqual({ dismissals: [] });
    expect((await call('DELETE', `/api/dismissals${query({ ...course, fingerprint: FINGERPRINT })}`, { token: tokenA })).body).toEqual({ fingerprint: FINGERPRINT, restored: false });
  });

  it('dismisses without a reason, and a second dismissal of the same finding replaces the first', async () => {
    await call('PUT', '/api/dismissals', { token: tokenA, body: { ...course, fingerprint: FINGERPRINT, reason: 'first' } });
    const again = await call('PUT', '/api/dismissals', { token: tokenA, body: { ...course, fingerprint: FINGERPRINT, reason: '' } });
    expect(again.body).toEqual({ fingerprint: FINGERPRINT, by: 'a@example.com', at: expect.any(String) });
    expect((await call('GET', `/api/dismissals${query(course)}`, { token: tokenA })).body).toEqual({ dismissals: [again.body] });
    await call('DELETE', `/api/dismissals${query({ ...course, fingerprint: FINGERPRINT })}`, { token: tokenA });
  });

  it('refuses bad input with every problem named, and changes nothing', async () => {
    const bad = await call('PUT', '/api/dismissals', { token: tokenA, body: { siteUrl: 'ftp://acme.example.com', orgUnitId: -1, fingerprint: 'ABC', reason: 'x'.repeat(501) } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_input');
    for (const part of ['siteUrl:', 'orgUnitId is required', 'fingerprint must be', 'reason must be text of at most 500 characters']) expect(bad.body.message).toContain(part);

    const privateSite = await call('PUT', '/api/dismissals', { token: tokenA, body: { siteUrl: 'https://10.0.0.7', orgUnitId: 6606, fingerprint: FINGERPRINT } });
    expect(privateSite.status).toBe(400);
    expect(privateSite.body.message).toContain('siteUrl: 10.0.0.7 is a private, local or reserved network address.');

    expect((await call('PUT', '/api/dismissals', { token: tokenA, body: { ...course, fingerprint: FINGERPRINT, reason: 'a\u0007b' } })).status).toBe(400);
    expect((await call('PUT', '/api/dismissals', { token: tokenA, body: [course] })).body.message).toBe(
      'The request body must be a JSON object with the fields siteUrl, orgUnitId, fingerprint and reason.',
    );
    expect((await call('PUT', '/api/dismissals', { token: tokenA, raw: '{"siteUrl":' })).status).toBe(400);
    expect((await call('GET', '/api/dismissals', { token: tokenA })).body.message).toBe(
      "siteUrl is required: the Brightspace site address, such as https://school.brightspace.com. orgUnitId is required: the course's org unit ID, a positive whole number such as 6606.",
    );
    expect((await call('DELETE', `/api/dismissals${query(course)}`, { token: tokenA })).status).toBe(400);
    expect((await call('GET', `/api/dismissals${query(course)}`, { token: tokenA })).body).toEqual({ dismissals: [] });
    expect((await call('PUT', '/api/dismissals', { body: { ...course, fingerprint: FINGERPRINT } })).status).toBe(401);
    expect((await call('PATCH', '/api/dismissals', { token: tokenA })).status).toBe(405);
  });

  it('allows a line break in a reason, and answers in the caller’s language', async () => {
    const put = await call('PUT', '/api/dismissals', { token: tokenA, body: { ...course, fingerprint: FINGERPRINT, reason: 'Checked by hand.\nThe link works for students.' } });
    expect(put.body.reason).toBe('Checked by hand.\nThe link works for students.');
    await call('DELETE', `/api/dismissals${query({ ...course, fingerprint: FINGERPRINT })}`, { token: tokenA });
  });
});
