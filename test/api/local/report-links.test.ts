// Report links on the local server, as the app and a browser meet them: job-status hands the owner an
// outputUrl with a signed, expiring capability; only that link opens the report (and its twins), and
// a link with no capability, a forged or altered one, another report's, or an expired one gets 403
// and the page that says to open the report from CTPO. Asking job-status again renews the link.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPORT_LINK_LIFETIME_MS } from '../../../api/http/report-links.ts';
import { signReportCapability } from '../../../api/http/report-capability.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { apiCaller } from './run-helpers.ts';
import type { ApiCaller, RunRequest } from './run-helpers.ts';
import { httpsClient, signIn, startTestStack } from './support.ts';
import type { HttpsClient } from './support.ts';

// Real servers and run processes on a machine shared with other test runs: safety nets only.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const scriptedWorker = new URL('../jobs/fixtures/scripted-job-worker.ts', import.meta.url);
const users = ['a@example.com', 'b@example.com'].map((email) => ({ email, password: `pw-${email}` }));
const HOUR = 3_600_000;

let dir: string;
let stack: LocalStack;
let client: HttpsClient;
/** How far the stack's clock for report links is ahead of the real one. */
let ahead = 0;
let alice: ApiCaller;
let bob: ApiCaller;

const run = (label: string): RunRequest => ({ USER_NAME: 'qa.tester', PASSWORD: 'brightspace-secret-9', CLIENT_URL: 'https://acme.example.com', ORG_UNIT_ID: 6606, CLIENT_NAME: label, MODULES: [11] });

/** A finished run of `caller`'s, with report files where a real run writes them. */
async function finishedRun(caller: ApiCaller, label: string): Promise<{ filename: string; taskArn: string; outputUrl: string }> {
  const started = await caller.startRun(run(label));
  const done = await caller.waitForEnd(started.taskArn, 100_000);
  expect(done.status).toBe('SUCCEEDED');
  for (const [extension, content] of [
    ['html', `<!doctype html><h1>Report of ${label}</h1>`],
    ['json', JSON.stringify({ client: label })],
    ['csv', `Module,Topic\r\n${label},Welcome\r\n`],
  ]) {
    writeFileSync(join(dir, 'reports', `${started.filename}.${extension}`), content!);
  }
  return { filename: started.filename, taskArn: started.taskArn, outputUrl: done.outputUrl! };
}

async function expectRefused(url: string, title: string): Promise<void> {
  const answer = await client.fetch(url);
  const page = await answer.text();
  expect(answer.status, url).toBe(403);
  expect(answer.headers.get('content-type'), url).toBe('text/html; charset=utf-8');
  expect(answer.headers.get('cache-control'), url).toBe('no-store');
  expect(page, url).toContain(`<h1>${title}</h1>`);
  expect(page, url).toContain('Open the report again from CTPO: sign in, find the run in the job monitor and choose View HTML Output.');
  expect(page, url).not.toContain('Report of');
}

beforeAll(async () => {
  ({ dataDir: dir, stack } = await startTestStack('ctpo-report-links-', {
    users,
    allowPrivateTargets: false,
    workerEntry: scriptedWorker,
    poolSize: 2,
    now: () => new Date(Date.now() + ahead),
    // Fake DNS (no network here): the client site is public.
    resolve: async (host) => {
      if (host === 'acme.example.com') return [{ address: '93.184.215.14', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    },
  }));
  client = httpsClient(stack.ca);
  const tokenOf = async (email: string) =>
    (await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, email, password: `pw-${email}` })).access_token;
  alice = apiCaller(client, stack.origin, await tokenOf('a@example.com'));
  bob = apiCaller(client, stack.origin, await tokenOf('b@example.com'));
});

afterAll(async () => {
  await stack?.close();
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('report links on the local server', () => {
  it('open the report and its twins through the link job-status hands the owner, and nothing opens it without one', async () => {
    ahead = 0;
    const mine = await finishedRun(alice, 'sleep-10');
    expect(mine.outputUrl).toMatch(new RegExp(`^${stack.origin}/reports/[a-z0-9]{1,16}\\.[1-9][0-9]+\\.[1-9][0-9]+\\.[0-9a-f]{16}\\.[0-9a-f]{64}/$`));
    const [, expires, issued] = /\/reports\/[a-z0-9]+\.(\d+)\.(\d+)\./.exec(mine.outputUrl)!.map(Number) as [number, number, number];
    // Valid no longer than the access token that asked (15 minutes), well within the hour links may last.
    expect(Math.abs(issued * 1000 - Date.now())).toBeLessThan(60_000);
    expect(expires - issued).toBeGreaterThan(0);
    expect(expires - issued).toBeLessThanOrEqual(15 * 60);
    expect(expires * 1000 - issued * 1000).toBeLessThan(REPORT_LINK_LIFETIME_MS);

    const html = await client.fetch(`${mine.outputUrl}${mine.filename}.html`);
    expect(html.status).toBe(200);
    expect(await html.text()).toBe('<!doctype html><h1>Report of sleep-10</h1>');
    expect(await (await client.fetch(`${mine.outputUrl}${mine.filename}.json`)).json()).toEqual({ client: 'sleep-10' });
    const csv = await client.fetch(`${mine.outputUrl}${mine.filename}.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${mine.filename}.csv"`);

    // No link: the bare address the seed's rule gives without a capability.
    await expectRefused(`${stack.origin}/reports/${mine.filename}.html`, 'This report link is not valid');
    await expectRefused(`${stack.origin}/reports/`, 'This report link is not valid');
  });

  it('refuse a forged or altered link, and one made for another report, with 403 and the page', async () => {
    ahead = 0;
    const mine = await finishedRun(alice, 'sleep-10');
    const theirs = await finishedRun(bob, 'sleep-20');
    const capability = new URL(mine.outputUrl).pathname.split('/')[2]!;
    const [keyId, expires, issued, owner, signature] = capability.split('.') as [string, string, string, string, string];
    const flipped = signature.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const outsider = signReportCapability({ filename: mine.filename, expiresAt: new Date(Date.now() + HOUR), keyId, key: 'not-the-server-key-'.repeat(3) });
    for (const forged of [
      `${keyId}.${expires}.${issued}.${owner}.${flipped}`,
      // A later expiry under the same signature.
      `${keyId}.${Number(expires) + 86_400}.${issued}.${owner}.${signature}`,
      `zz${keyId}.${expires}.${issued}.${owner}.${signature}`,
      outsider,
    ]) {
      await expectRefused(`${stack.origin}/reports/${forged}/${mine.filename}.html`, 'This report link is not valid');
    }
    // Someone else's report: Bob's link opens Bob's report only, and Alice's job is not his to ask about.
    await expectRefused(`${theirs.outputUrl}${mine.filename}.html`, 'This report link is not valid');
    await expectRefused(`${mine.outputUrl}${theirs.filename}.json`, 'This report link is not valid');
    expect((await bob.jobStatus(mine.taskArn)).status).toBe(403);
    expect((await client.fetch(`${theirs.outputUrl}${theirs.filename}.html`)).status).toBe(200);
  });

  it('expire with the token that asked for them, are refused past an hour, and job-status renews them', async () => {
    ahead = 0;
    const mine = await finishedRun(alice, 'sleep-10');
    const first = `${mine.outputUrl}${mine.filename}.html`;
    expect((await client.fetch(first)).status).toBe(200);

    // Past the access token's 15 minutes, and past the hour no link outlives.
    ahead = 16 * 60_000;
    await expectRefused(first, 'This report link has expired');
    ahead = REPORT_LINK_LIFETIME_MS + 1000;
    await expectRefused(first, 'This report link has expired');

    // The owner opens the job again: a fresh link, which works until its own expiry.
    ahead = 0;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const renewed = (await alice.jobStatus(mine.taskArn)).body.outputUrl!;
    expect(renewed).not.toBe(mine.outputUrl);
    const fresh = await client.fetch(`${renewed}${mine.filename}.html`);
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toBe('<!doctype html><h1>Report of sleep-10</h1>');
    ahead = REPORT_LINK_LIFETIME_MS + HOUR;
    await expectRefused(`${renewed}${mine.filename}.html`, 'This report link has expired');
  });

  it('are all ended by their owner at once, and no one else\'s are', async () => {
    ahead = 0;
    const mine = await finishedRun(alice, 'sleep-10');
    const theirs = await finishedRun(bob, 'sleep-20');
    const revoke = await client.fetch(`${stack.origin}/api/report-links`, { method: 'DELETE', headers: { authorization: alice.authorization } });
    expect(revoke.status).toBe(200);
    await expectRefused(`${mine.outputUrl}${mine.filename}.html`, 'This report link is not valid');
    expect((await client.fetch(`${theirs.outputUrl}${theirs.filename}.html`)).status).toBe(200);
    // A link signed after the revocation (the next second) opens the report again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const renewed = (await alice.jobStatus(mine.taskArn)).body.outputUrl!;
    expect((await client.fetch(`${renewed}${mine.filename}.html`)).status).toBe(200);
  });
});
