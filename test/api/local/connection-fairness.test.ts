// One client cannot lock the local server out for others: it may hold only its share of the
// connection slots (counted per address from the TCP connection on); at its share, its oldest idle
// connection makes way for a new one (on a loopback-only server every local process is the same
// client address); and an answer it stops reading ends its connection soon, rather than holding the
// slot until the idle timeout (two minutes).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { startTestStack } from './support.ts';

let dataDir: string;
let stack: LocalStack;
let port: number;

beforeAll(async () => {
  const webDist = join(process.env.TMPDIR ?? '/tmp', `ctpo-fairness-web-${process.pid}`);
  mkdirSync(webDist, { recursive: true });
  // An app shell far larger than the socket buffers: a client that does not read it leaves it unsent.
  writeFileSync(join(webDist, 'index.html'), `<!doctype html><title>App</title>${'<p>padding</p>'.repeat(600_000)}`);
  ({ dataDir, stack } = await startTestStack('ctpo-fairness-', {
    hosts: ['127.0.0.1', '::1'],
    webDist,
    connectionLimits: { maxConnections: 50, maxConnectionsPerClient: 5, drainTimeoutMs: 500 },
  }));
  port = Number(new URL(stack.origin).port);
});

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A TLS connection from one loopback address: taken (its handshake completes) or dropped. */
function attempt(host: string): Promise<{ socket: TLSSocket; taken: boolean }> {
  return new Promise((resolve) => {
    const socket = connectTls({ host, port, ca: stack.ca, servername: 'localhost', checkServerIdentity: () => undefined }, () => resolve({ socket, taken: true }));
    socket.once('error', () => resolve({ socket, taken: false }));
    socket.once('close', () => resolve({ socket, taken: false }));
  });
}

const closed = (socket: TLSSocket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));


describe('connection fairness on the local server', () => {
  it('gives one client address its share of the slots, its oldest idle connection making way for a new one, and another client is still served', async () => {
    const hogs: TLSSocket[] = [];
    for (let index = 0; index < 5; index++) {
      const one = await attempt('127.0.0.1');
      expect(one.taken).toBe(true);
      hogs.push(one.socket);
    }
    // A local process holding every slot of 127.0.0.1 idle does not lock the next one out: its oldest goes.
    const sixth = await attempt('127.0.0.1');
    expect(sixth.taken).toBe(true);
    await closed(hogs[0]!);
    for (const socket of hogs.slice(1)) expect(socket.destroyed).toBe(false);
    const sixthAnswer = await new Promise<string>((resolve) => {
      let text = '';
      sixth.socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      sixth.socket.once('close', () => resolve(text));
      sixth.socket.write('GET /config.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    });
    expect(sixthAnswer).toMatch(/^HTTP\/1\.1 200 /);
    hogs.push(sixth.socket);
    const other = await attempt('::1');
    expect(other.taken).toBe(true);
    other.socket.write('GET /config.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    let answer = '';
    other.socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    await closed(other.socket);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    for (const socket of hogs) socket.destroy();
  });

  it('frees the slots of a client that asks for answers and never reads them', async () => {
    // The server learns of the last test's closes a moment later: a connection is taken once it has.
    const take = async () => {
      let next = await attempt('127.0.0.1');
      for (let tries = 0; !next.taken && tries < 1000; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        next = await attempt('127.0.0.1');
      }
      return next;
    };
    const stalled: TLSSocket[] = [];
    for (let index = 0; index < 5; index++) {
      const { socket, taken } = await take();
      expect(taken).toBe(true);
      socket.pause();
      socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
      stalled.push(socket);
    }
    // All of this client's slots are held by answers it does not read. Once the server has ended
    // them (before, they were held until the two-minute idle timeout), the client is served again.
    const again = await take();
    expect(again.taken).toBe(true);
    for (const socket of [...stalled, again.socket]) socket.destroy();
  });
});
