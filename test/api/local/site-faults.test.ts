// The Brightspace site down, failing or too slow: the run ends FAILED with a reason the user can act
// on, in bounded time, and the table of contents answers a clear error within its own limit.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Server as TcpServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import { startLocalStack } from '../../../api/local/local-stack.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { apiCaller } from './run-helpers.ts';
import type { ApiCaller, JobStatusBody } from './run-helpers.ts';
import { httpsClient, signIn } from './support.ts';
import type { HttpsClient } from './support.ts';

// The engine's limit for one request to the site (api/engine/types.ts, siteTimeoutMs).
const SITE_TIMEOUT_MS = 30_000;
const TOC_TIMEOUT_MS = 2_000;

let dataDir: string;
let stack: LocalStack;
let client: HttpsClient;
let api: ApiCaller;
let token: string;
// Accepts connections and never answers.
let silent: TcpServer;
const silentSockets = new Set<Socket>();
// Answers every request with 503.
let failing: HttpServer;
let closedOrigin: string;

interface Outcome {
  body: JobStatusBody;
  seconds: number;
}
const outcomes = new Map<string, Promise<Outcome>>();

const originOf = (server: TcpServer | HttpServer) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const listen = (server: TcpServer | HttpServer) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

async function runAgainst(siteUrl: string): Promise<Outcome> {
  const at = Date.now();
  const started = await api.startRun({ USER_NAME: 'teacher', PASSWORD: 'pw-site', CLIENT_URL: siteUrl, ORG_UNIT_ID: 6606, CLIENT_NAME: 'Faults', MODULES: [1] });
  expect(started.status).toBe(202);
  const body = await api.waitForEnd(started.taskArn, SITE_TIMEOUT_MS + 120_000, 250);
  return { body, seconds: (Date.now() - at) / 1000 };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ctpo-faults-'));
  silent = createTcpServer((socket) => {
    silentSockets.add(socket);
    socket.on('close', () => silentSockets.delete(socket));
  });
  failing = createHttpServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'text/html' });
    res.end('<p>Service unavailable</p>');
  });
  const closed = createTcpServer();
  await Promise.all([listen(silent), listen(failing), listen(closed)]);
  closedOrigin = originOf(closed);
  await new Promise((resolve) => closed.close(resolve));

  stack = await startLocalStack({
    dataDir,
    port: 0,
    hosts: ['127.0.0.1'],
    publicHost: '127.0.0.1',
    webDist: null,
    useMkcert: false,
    poolSize: 3,
    tocTimeoutMs: TOC_TIMEOUT_MS,
    log: () => undefined,
  });
  client = httpsClient(stack.ca);
  token = (await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, email: 'qa@example.com', password: 'ctpo-local' })).access_token;
  api = apiCaller(client, stack.origin, token);
  // All three at once: the slow one sets the pace.
  outcomes.set('down', runAgainst(closedOrigin));
  outcomes.set('failing', runAgainst(originOf(failing)));
  outcomes.set('silent', runAgainst(originOf(silent)));
  for (const outcome of outcomes.values()) outcome.catch(() => undefined);
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await client?.close();
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  failing.closeAllConnections();
  await new Promise((resolve) => failing.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a Brightspace site that is', () => {
  it('down: the run fails at once with the reason', async () => {
    const { body, seconds } = await outcomes.get('down')!;
    expect(body).toMatchObject({ status: 'FAILED', reason: `${closedOrigin.slice('http://'.length)} refused the connection. Check the Client Site URL, or try again later.` });
    // The reason names the refusal, not the time limit; and it did not wait for that limit.
    expect(seconds).toBeLessThan(SITE_TIMEOUT_MS / 1000);
  }, 120_000);

  it('failing with 503: the run fails at once with the reason', async () => {
    const { body, seconds } = await outcomes.get('failing')!;
    expect(body).toMatchObject({ status: 'FAILED', reason: `${originOf(failing).slice('http://'.length)} answered with an error (HTTP 503). Try again later.` });
    expect(seconds).toBeLessThan(SITE_TIMEOUT_MS / 1000);
  }, 120_000);

  it('silent (connects, never answers): the run fails after the site time limit, with the reason', async () => {
    const { body, seconds } = await outcomes.get('silent')!;
    expect(body.status).toBe('FAILED');
    expect(body.reason).toBe(`${originOf(silent).slice('http://'.length)} did not answer within 30 s. Check the Client Site URL, or try again later.`);
    // Only a lower bound: a busy machine can only make it later, and the reason names the limit.
    expect(seconds).toBeGreaterThanOrEqual(SITE_TIMEOUT_MS / 1000 - 1);
  }, SITE_TIMEOUT_MS + 150_000);

  it('silent, for the table of contents: a clear error within the toc time limit', async () => {
    const at = Date.now();
    const answer = await client.fetch(`${stack.origin}/api/toc`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ORG_UNIT_ID: '6606', CLIENT_URL: originOf(silent), USER_NAME: 'teacher', PASSWORD: 'pw-site' }),
    });
    const seconds = (Date.now() - at) / 1000;
    const body = (await answer.json()) as { message: string; code: string };
    expect(answer.status).toBe(502);
    expect(body).toEqual({ code: 'site_unreachable', message: 'The Brightspace site did not answer in time. Check the Client Site URL and try again.' });
    // It answered on its own (2 s) limit, long before the engine's 30 s one for a site request.
    expect(seconds).toBeLessThan(SITE_TIMEOUT_MS / 1000);
  }, 120_000);
});
