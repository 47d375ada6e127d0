// Requests no app sends, beyond the bad input of test/api/http: deeply nested JSON, bytes that are
// not UTF-8, prototype keys, an address too long, a client that hangs up halfway through its body.
// Each gets a 4xx (or the connection closed), nothing is recorded, and the server keeps serving.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_STATUSES } from '../../../api/jobs/job-status.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import { startLocalStack } from '../../../api/local/local-stack.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { httpsClient, signIn } from './support.ts';
import type { HttpsClient } from './support.ts';

let dataDir: string;
let stack: LocalStack;
let client: HttpsClient;
let token: string;

async function post(path: string, body: string | Buffer): Promise<{ status: number; body: { code?: string; message?: string } }> {
  const answer = await client.fetch(`${stack.origin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  const text = await answer.text();
  return { status: answer.status, body: text.startsWith('{') ? (JSON.parse(text) as { code?: string; message?: string }) : {} };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ctpo-hostile-'));
  stack = await startLocalStack({ dataDir, port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1', webDist: null, useMkcert: false, allowPrivateTargets: false, log: () => undefined });
  client = httpsClient(stack.ca);
  token = (await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, email: 'qa@example.com', password: 'ctpo-local' })).access_token;
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await client?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('hostile requests', () => {
  it('answer 400 with a clear message and record nothing', async () => {
    const cases: [string, string, string | Buffer][] = [
      ['JSON nested 30 000 deep', '/api/run-tests', `${'['.repeat(30_000)}${']'.repeat(30_000)}`],
      ['an object nested 10 000 deep', '/api/toc', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
      ['bytes that are not UTF-8', '/api/toc', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
      ['prototype keys and a private site', '/api/run-tests', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"USER_NAME":"a","PASSWORD":"b","CLIENT_URL":"https://10.0.0.1","ORG_UNIT_ID":1,"CLIENT_NAME":"c","MODULES":[1]}'],
      ['numbers out of every range', '/api/run-tests', '{"USER_NAME":"a","PASSWORD":"b","CLIENT_URL":"https://x.test","ORG_UNIT_ID":1e300,"CLIENT_NAME":"c","MODULES":[1.5,-1,1e20]}'],
    ];
    for (const [name, path, body] of cases) {
      const answer = await post(path, body);
      expect(answer.status, name).toBe(400);
      expect(answer.body.code, name).toMatch(/^(invalid_input|address_not_allowed)$/);
      expect(answer.body.message, name).toMatch(/\w+ \w+/);
    }
    expect(await stack.jobs.listByStatus(JOB_STATUSES)).toEqual([]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('refuse an address longer than the server reads, without a crash', async () => {
    const answer = await client.fetch(`${stack.origin}/api/job-status/${'a'.repeat(20_000)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    await answer.text();
  });

  it.each(['GET /api/job-status/no-such-job', 'HEAD /', 'OPTIONS /api/run-tests'])('answer a %s that says it has a body with 400 and close, without waiting for the body', async (line) => {
    const port = Number(new URL(stack.origin).port);
    // No token and a body that never comes: read, it would hold the connection until the request timeout (a 408).
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect({ host: '127.0.0.1', port, ca: stack.ca, servername: 'localhost' }, () => {
        socket.write(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n`);
      });
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    if (!line.startsWith('HEAD')) expect(answer).toContain('takes no body');
  });

  it('survive a client that hangs up halfway through its body', async () => {
    const port = Number(new URL(stack.origin).port);
    await new Promise<void>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, ca: stack.ca, servername: 'localhost' }, () => {
        socket.write(`POST /api/toc HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"ORG_UNIT_ID":`);
        setTimeout(() => socket.destroy(), 200);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const still = await client.fetch(`${stack.origin}/api/job-status/no-such-job`, { headers: { authorization: `Bearer ${token}` } });
    expect(still.status).toBe(404);
    expect(await still.json()).toMatchObject({ code: 'not_found' });
  });
});
