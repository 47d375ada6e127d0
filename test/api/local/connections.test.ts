// The local server's own defences: the token is checked before a body is read, a client that hangs
// up costs no log line, idle connections are closed, and connections beyond the cap are dropped.
import { rmSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import type { Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { httpsClient, signIn, startTestStack } from './support.ts';
import type { HttpsClient } from './support.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let dataDir: string;
let stack: LocalStack;
let client: HttpsClient;
let token: string;
let port: number;
const logged: string[] = [];

beforeAll(async () => {
  ({ dataDir, stack } = await startTestStack('ctpo-connections-', {
    allowPrivateTargets: false,
    connectionLimits: { maxConnections: 12, handshakeTimeoutMs: 300, headersTimeoutMs: 500, keepAliveTimeoutMs: 300 },
    log: (line) => logged.push(line),
  }));
  port = Number(new URL(stack.origin).port);
  client = httpsClient(stack.ca);
  token = (await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, email: 'qa@example.com', password: 'ctpo-local' })).access_token;
});

afterAll(async () => {
  await stack?.close();
  await client?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function tlsSocket(): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: '127.0.0.1', port, ca: stack.ca, servername: 'localhost' }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
  });
}

describe('the local server', () => {
  it('answers a call without a valid token before reading its body, and closes the connection', async () => {
    for (const authorization of ['', 'Authorization: Bearer not-a-token\r\n']) {
      const socket = await tlsSocket();
      const answer = untilClosed(socket);
      // A body is announced but never sent: only an answer that does not wait for it can come.
      socket.write(`POST /api/run-tests HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization}Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n`);
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 401 /);
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(text).toContain('"code":"unauthorized"');
    }
  });

  it('logs nothing when clients hang up half way through their requests', async () => {
    const before = logged.length;
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const socket = await tlsSocket();
          const closed = untilClosed(socket);
          socket.write(`POST /api/toc HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"ORG_UNIT_ID":`);
          // Hang up once the server has begun on the request.
          setTimeout(() => socket.destroy(), 20);
          await closed;
        }),
      );
    }
    // The server still answers, and wrote not a line about any of it.
    const still = await client.fetch(`${stack.origin}/api/job-status/no-such-job`, { headers: { authorization: `Bearer ${token}` } });
    expect(still.status).toBe(404);
    expect(logged.slice(before)).toEqual([]);
  });

  it('closes a connection that never finishes its handshake, and one that never sends a request', async () => {
    const raw = connectTcp({ host: '127.0.0.1', port });
    expect(await untilClosed(raw)).toBe('');
    const idle = await tlsSocket();
    expect(await untilClosed(idle)).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('drops connections beyond its cap, and takes new ones once others have gone', async () => {
    // Each attempt is taken (its handshake completes) or dropped (closed before it could).
    const attempt = () =>
      new Promise<{ socket: TLSSocket; taken: boolean }>((resolve) => {
        const socket = connectTls({ host: '127.0.0.1', port, ca: stack.ca, servername: 'localhost' }, () => resolve({ socket, taken: true }));
        socket.once('error', () => resolve({ socket, taken: false }));
        socket.once('close', () => resolve({ socket, taken: false }));
      });
    const attempts = [];
    for (let index = 0; index < 14; index++) attempts.push(await attempt());
    // The cap is 12, and the test's own client may hold a kept-alive connection besides.
    expect(attempts.filter((one) => one.taken).length).toBeLessThanOrEqual(12);
    expect(attempts.at(-1)?.taken).toBe(false);
    for (const { socket } of attempts) socket.destroy();
    // The server learns of the closes a moment later: a new connection is taken once it has.
    let next = await attempt();
    for (let tries = 0; !next.taken && tries < 100; tries++) next = await attempt();
    expect(next.taken).toBe(true);
    next.socket.destroy();
    const answer = await client.fetch(`${stack.origin}/api/job-status/no-such-job`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(404);
  });
});
