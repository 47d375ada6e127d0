// `npm run dev` as a developer runs it: a real Vite dev server, its /config.json taken from a
// running local stack or from a config address.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack } from '../../api/local/local-stack.ts';
import type { LocalStack } from '../../api/local/local-stack.ts';

const script = fileURLToPath(new URL('../../scripts/dev.ts', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function runDev(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = async (text: string) => {
    // A safety net: it returns as soon as the text appears, however busy the machine.
    const deadline = Date.now() + 100_000;
    while (!output.includes(text)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no "${text}" in:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { child, exited, waitFor, output: () => output };
}

/** The API's CORS answer for an app origin on the running stack. */
async function corsFor(origin: string): Promise<string | null> {
  const agent = new Agent({ connect: { ca: stackCa } });
  try {
    const answer = await undiciFetch(`${stackOrigin}/api/jobs`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' }, dispatcher: agent });
    return answer.headers.get('access-control-allow-origin');
  } finally {
    await agent.close();
  }
}
let stackOrigin: string;
let stackCa: string;

describe('npm run dev', () => {
  let dir: string;
  let stack: LocalStack;
  let stackPort: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ctpo-dev-'));
    stack = await startLocalStack({ dataDir: dir, port: 0, hosts: ['127.0.0.1'], webDist: null, useMkcert: false, pollIntervalMs: 2000, log: () => undefined });
    stackPort = Number(new URL(stack.origin).port);
    stackOrigin = stack.origin;
    stackCa = stack.ca;
  });
  afterAll(async () => {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the app with hot reload and the running local stack’s config', async () => {
    const port = await freePort();
    const dev = runDev(['--port', String(port)], { CTPO_PORT: String(stackPort), CTPO_DATA_DIR: dir });
    try {
      // The lines after the first may come in a later chunk of the pipe: wait for the last one checked.
      await dev.waitFor(`Sign-in and API: the local stack at https://localhost:${stackPort}`);
      expect(dev.output()).toContain(`Vite dev server: http://localhost:${port}/ (hot reload)`);
      const config = await (await fetch(`http://localhost:${port}/config.json`)).json();
      expect(config).toMatchObject({ apiUrl: `https://localhost:${stackPort}`, oauthDomain: `localhost:${stackPort}`, userPoolEndpoint: `https://localhost:${stackPort}/`, pollIntervalMs: 2000 });
      const page = await (await fetch(`http://localhost:${port}/`)).text();
      expect(page).toContain('/@vite/client');
      // The stack trusts the dev server's origin while it runs, and no longer once it has stopped.
      expect(await corsFor(`http://localhost:${port}`)).toBe(`http://localhost:${port}`);
      dev.child.kill('SIGINT');
      expect(await dev.exited).toBe(0);
      expect(await corsFor(`http://localhost:${port}`)).toBeNull();
    } finally {
      dev.child.kill('SIGKILL');
    }
  }, 120_000);

  it('serves a deployed environment’s config with --config-url', async () => {
    const port = await freePort();
    const certFile = join(dir, 'extra-ca.pem');
    writeFileSync(certFile, stack.ca);
    const dev = runDev(['--port', String(port), '--config-url', `https://localhost:${stackPort}/config.json`], { NODE_EXTRA_CA_CERTS: certFile });
    try {
      await dev.waitFor(`must list http://localhost:${port}/ as a callback and sign-out URL`);
      expect(dev.output()).toContain(`Sign-in and API: the environment of https://localhost:${stackPort}/config.json`);
      const config = await (await fetch(`http://localhost:${port}/config.json`)).json();
      expect(config).toMatchObject({ userPoolClientId: 'ctpo-local-web', apiUrl: `https://localhost:${stackPort}` });
    } finally {
      dev.child.kill('SIGKILL');
    }
  }, 120_000);

  it('says to start the local stack first when it is not running', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ctpo-dev-empty-'));
    try {
      const dev = runDev(['--port', String(await freePort())], { CTPO_PORT: '1', CTPO_DATA_DIR: empty });
      expect(await dev.exited).toBe(1);
      expect(dev.output()).toContain('The local stack is not running at https://localhost:1. Start it first with npm start');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
