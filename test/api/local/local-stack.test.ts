// The local stack as one origin: the app, /config.json, the reports, restart and shutdown, and the
// table of contents read from a Brightspace-like site on loopback through the real engine.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { RESTART_REASON } from '../../../api/jobs/fail-interrupted-jobs.ts';
import { SHUTDOWN_REASON } from '../../../api/jobs/local-job-runner.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import { DEV_KEY_FILE, DEV_KEY_HEADER } from '../../../api/local/dev-origins.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import { signReportCapability } from '../../../api/http/report-capability.ts';
import { startLocalStack } from '../../../api/local/local-stack.ts';
import { loadOrCreateReportKey } from '../../../api/local/report-link-key.ts';
import { REPORT_CSP } from '../../../api/report/report-csp.ts';
import type { LocalStack, LocalStackOptions } from '../../../api/local/local-stack.ts';
import { startBrightspaceSite } from '../../fixtures/brightspace-site.ts';
import type { BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { httpsClient, signIn } from './support.ts';
import type { HttpsClient } from './support.ts';

// Real servers, worker threads and key generation on a machine shared with other test runs.
// Safety nets only: on a busy machine a run here can take many times its usual second or two.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const scriptedWorker = new URL('../jobs/fixtures/scripted-job-worker.ts', import.meta.url);
const user = { email: 'qa@example.com', password: 'ctpo-local' };

let root: string;
let dist: string;

function options(dataDir: string, extra: Partial<LocalStackOptions> = {}): LocalStackOptions {
  return { dataDir, port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1', webDist: dist, users: [user], useMkcert: false, workerEntry: scriptedWorker, log: () => undefined, ...extra };
}

async function tokenFor(stack: LocalStack, client: HttpsClient): Promise<string> {
  const tokens = await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, ...user });
  return tokens.access_token;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ctpo-stack-'));
  dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>CTPO</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-Bx7_k2Qa.js'), 'console.log("app")');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, 'secret.txt'), 'outside the app');
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('one origin', () => {
  let stack: LocalStack;
  let client: HttpsClient;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = join(root, 'data-one');
    stack = await startLocalStack(options(dataDir, { pollIntervalMs: 500 }));
    client = httpsClient(stack.ca);
  });
  afterAll(async () => {
    await stack.close();
    await client.close();
  });

  it('serves /config.json for this origin, never cached', async () => {
    const answer = await client.fetch(`${stack.origin}/config.json`);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(await answer.json()).toEqual({
      region: 'ca-central-1',
      userPoolId: 'ca-central-1_Local',
      userPoolClientId: LOCAL_CLIENT_ID,
      oauthDomain: new URL(stack.origin).host,
      userPoolEndpoint: `${stack.origin}/`,
      siteUrl: `${stack.origin}/`,
      apiUrl: stack.origin,
      jobStatusApiUrl: stack.origin,
      pollIntervalMs: 500,
    });
  });

  it('signs in at every loopback name of the origin, each with its own config', async () => {
    const port = new URL(stack.origin).port;
    const alias = `https://localhost:${port}`;
    const tokens = await signIn({ client, origin: alias, clientId: LOCAL_CLIENT_ID, redirectUri: `${alias}/`, ...user });
    expect(tokens.access_token.split('.')).toHaveLength(3);
    const config = (await (await client.fetch(`${alias}/config.json`)).json()) as { apiUrl: string };
    expect(config.apiUrl).toBe(alias);
  });

  it('trusts the dev server\'s origin only while npm run dev asks for it, with the key of its data folder', async () => {
    const dev = 'http://localhost:5173';
    const devSignIn = () => signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${dev}/`, ...user });
    const corsOf = async () => (await client.fetch(`${stack.origin}/api/jobs`, { method: 'OPTIONS', headers: { origin: dev, 'access-control-request-method': 'GET' } })).headers.get('access-control-allow-origin');
    const ask = (method: string, key: string) => client.fetch(`${stack.origin}/dev-origin/5173`, { method, headers: { [DEV_KEY_HEADER]: key } });
    // Nothing asked: a process holding port 5173 gets neither a sign-in's code nor the API's CORS.
    await expect(devSignIn()).rejects.toThrow();
    expect(await corsOf()).toBeNull();
    expect((await ask('PUT', 'a'.repeat(64))).status).toBe(403);
    await expect(devSignIn()).rejects.toThrow();
    const key = readFileSync(join(dataDir, DEV_KEY_FILE), 'utf8');
    expect((await ask('PUT', key)).status).toBe(204);
    expect((await devSignIn()).access_token.split('.')).toHaveLength(3);
    expect(await corsOf()).toBe(dev);
    expect((await ask('DELETE', key)).status).toBe(204);
    await expect(devSignIn()).rejects.toThrow();
    expect(await corsOf()).toBeNull();
  });

  it('serves the app: hashed assets cached for good, the shell revalidated, client routes to the shell', async () => {
    const asset = await client.fetch(`${stack.origin}/assets/index-Bx7_k2Qa.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("app")');

    for (const path of ['/', '/index.html', '/jobs/some-client-route']) {
      const page = await client.fetch(`${stack.origin}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('cache-control'), path).toBe('no-cache');
      expect(page.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      expect(page.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(page.headers.get('x-frame-options'), path).toBe('DENY');
      expect(await page.text(), path).toContain('<div id="root">');
    }
    const etag = (await client.fetch(`${stack.origin}/favicon.svg`)).headers.get('etag')!;
    expect((await client.fetch(`${stack.origin}/favicon.svg`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('answers 404 for a missing file and never serves anything outside the app folder', async () => {
    expect((await client.fetch(`${stack.origin}/assets/missing-abcdefgh.js`)).status).toBe(404);
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/.%2e/.%2e/secret.txt']) {
      const answer = await client.fetch(`${stack.origin}${path}`);
      expect(await answer.text(), path).not.toContain('outside the app');
    }
    expect((await client.fetch(`${stack.origin}/`, { method: 'POST' })).status).toBe(405);
  });

  it('serves a stored report and its twins through a valid link with the right types, the HTML sandboxed, and nothing else', async () => {
    const name = 'acme-ou6606-20260501t100000z-abcdefghijklmnop';
    mkdirSync(join(dataDir, 'reports'), { recursive: true });
    writeFileSync(join(dataDir, 'reports', `${name}.html`), '<!doctype html><h1>Report</h1>');
    writeFileSync(join(dataDir, 'reports', `${name}.json`), '{"schemaVersion":1}');
    writeFileSync(join(dataDir, 'reports', `${name}.csv`), '\ufeffModule,Topic\r\nWeek 1,Welcome\r\n');
    // Signed with the key the server made in its data folder, as job-status signs.
    const key = loadOrCreateReportKey(join(dataDir, 'report-link-key.json'));
    const link = `${stack.origin}/reports/${signReportCapability({ filename: name, expiresAt: new Date(Date.now() + 3_600_000), ...key })}`;

    const html = await client.fetch(`${link}/${name}.html`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    // The policy CloudFront sends on AWS (test/infra/site.test.ts checks that side): no script at all.
    expect(html.headers.get('content-security-policy')).toBe(REPORT_CSP);
    expect(html.headers.get('content-security-policy')).not.toContain('script');
    expect(html.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await html.text()).toContain('<h1>Report</h1>');
    const json = await client.fetch(`${link}/${name}.json`);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await json.json()).toEqual({ schemaVersion: 1 });
    const csv = await client.fetch(`${link}/${name}.csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${name}.csv"`);
    expect(csv.headers.get('content-security-policy')).toBeNull();
    expect(await csv.text()).toContain('Week 1,Welcome');

    for (const path of [
      '/reports/',
      '/reports',
      `/reports/${name}`,
      `/reports/${name}.txt`,
      '/reports/../jobs.sqlite',
      '/reports/..%2fjobs.sqlite',
      '/reports/%2e%2e%2fjobs.sqlite',
      '/reports/..%2F..%2Fidentity-signing-key.pem',
      `/reports/${name.toUpperCase()}.html`,
      `/reports/${name}.html`,
      `${new URL(link).pathname}/${name}.txt`,
      `${new URL(link).pathname}/../jobs.sqlite`,
      `${new URL(link).pathname}/..%2fjobs.sqlite`,
      `${new URL(link).pathname}/${name.toUpperCase()}.html`,
    ]) {
      const answer = await client.fetch(`${stack.origin}${path}`);
      const text = await answer.text();
      expect(answer.status, path).not.toBe(200);
      expect(text, path).not.toContain('PRIVATE KEY');
      expect(text, path).not.toContain('SQLite');
      expect(text, path).not.toContain(key.key);
    }
  });
});

describe('the table of contents through the real engine', () => {
  let site: BrightspaceSite;
  let stack: LocalStack;
  let client: HttpsClient;

  beforeAll(async () => {
    site = await startBrightspaceSite({
      login: 'form',
      users: [{ username: 'teacher', password: 'right-password' }],
      courses: [{ orgUnitId: 6606, name: 'Nursing 101', code: 'NURS101', modules: [{ id: 11, title: 'Week 1', modules: [{ id: 12, title: 'Readings' }] }] }],
    });
    stack = await startLocalStack(options(join(root, 'data-toc')));
    client = httpsClient(stack.ca);
  });
  afterAll(async () => {
    await stack.close();
    await client.close();
    await site.close();
  });

  const toc = async (token: string, password: string) =>
    client.fetch(`${stack.origin}/api/toc`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ORG_UNIT_ID: '6606', CLIENT_URL: site.origin, USER_NAME: 'teacher', PASSWORD: password }),
    });

  it('returns the modules in Brightspace’s shape, and a 502 with the reason for a wrong password', async () => {
    const token = await tokenFor(stack, client);
    const answer = await toc(token, 'right-password');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { Modules: { ModuleId: number; Title: string; Modules: { ModuleId: number }[] }[] };
    expect(body.Modules[0]).toMatchObject({ ModuleId: 11, Title: 'Week 1', Modules: [{ ModuleId: 12 }] });

    const refused = await toc(token, 'wrong-password');
    expect(refused.status).toBe(502);
    expect(await refused.json()).toMatchObject({ code: 'login_failed', message: expect.any(String) });
  });
});

describe('restart and shutdown', () => {
  it('ends a run cut off by a crash FAILED at the next start, keeps the history, reports and sign-in', async () => {
    const dataDir = join(root, 'data-restart');
    const first = await startLocalStack(options(dataDir));
    const client = httpsClient(first.ca);
    const token = await tokenFor(first, client);
    const started = await client.fetch(`${first.origin}/api/run-tests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ USER_NAME: 'qa', PASSWORD: 'pw', CLIENT_URL: 'https://127.0.0.1', ORG_UNIT_ID: 1, CLIENT_NAME: 'sleep-10', MODULES: [1] }),
    });
    const { taskArn } = (await started.json()) as { taskArn: string };
    await first.runner.idle();
    await first.close();
    await client.close();

    // What a killed process leaves behind: a job the store still shows as running.
    const store = openSqliteJobStore({ path: join(dataDir, 'jobs.sqlite') });
    const at = new Date().toISOString();
    await store.create({ id: 'cut-off', owner: 'someone', status: 'RUNNING', client: 'x', siteUrl: 'https://a.test', orgUnitId: 1, modules: [1], filename: 'x-ou1-cut', createdAt: at, updatedAt: at });
    store.close();

    // Same port, so the same issuer, as with npm start's fixed 8443.
    const second = await startLocalStack(options(dataDir, { port: Number(new URL(first.origin).port) }));
    const again = httpsClient(second.ca);
    try {
      expect(second.recoveredJobs).toBe(1);
      expect(await second.jobs.get('cut-off')).toMatchObject({ status: 'FAILED', reason: formatMessage(RESTART_REASON) });
      // The token from before the restart still works: same signing key, same user, same jobs.
      const status = await again.fetch(`${second.origin}/api/job-status/${taskArn}`, { headers: { authorization: `Bearer ${token}` } });
      const body = await status.json();
      expect(body, JSON.stringify(body)).toMatchObject({ status: 'SUCCEEDED' });
    } finally {
      await second.close();
      await again.close();
    }
  });

  it('on close, stops the running run with a reason and stops listening', async () => {
    const stack = await startLocalStack(options(join(root, 'data-close'), { stopGraceMs: 500 }));
    const client = httpsClient(stack.ca);
    const token = await tokenFor(stack, client);
    const started = await client.fetch(`${stack.origin}/api/run-tests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ USER_NAME: 'qa', PASSWORD: 'pw', CLIENT_URL: 'https://127.0.0.1', ORG_UNIT_ID: 1, CLIENT_NAME: 'hang', MODULES: [1] }),
    });
    const { taskArn } = (await started.json()) as { taskArn: string };
    await client.close();
    const jobs = stack.jobs;
    // Wait for the run to start: its process takes a moment, many on a busy machine.
    let status = await jobs.get(taskArn);
    for (const deadline = Date.now() + 100_000; status?.status !== 'RUNNING' && Date.now() < deadline; status = await jobs.get(taskArn)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status?.status).toBe('RUNNING');
    const origin = stack.origin;
    const ca = stack.ca;
    await stack.close();

    const store = openSqliteJobStore({ path: join(root, 'data-close', 'jobs.sqlite') });
    expect(await store.get(taskArn)).toMatchObject({ status: 'FAILED', reason: formatMessage(SHUTDOWN_REASON) });
    store.close();
    const after = httpsClient(ca);
    await expect(after.fetch(`${origin}/config.json`)).rejects.toThrow();
    await after.close();
  });
});
