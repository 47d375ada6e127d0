// `npm start` as a person runs it: a real process, its output, the served origin, and Ctrl-C.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpsClient } from '../api/local/support.ts';

const script = fileURLToPath(new URL('../../scripts/start.ts', import.meta.url));

function run(args: string[], env: Record<string, string>): { child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(read: () => string, pattern: RegExp, ms = 100_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const match = read().match(pattern);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${pattern} in:\n${read()}`);
}

describe('npm start', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ctpo-start-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, prints the address and the credentials, serves the origin, and stops cleanly on Ctrl-C', async () => {
    const started = run(['--no-build'], {
      CTPO_PORT: '0',
      CTPO_DEMO_PORT: '0',
      CTPO_DATA_DIR: dataDir,
      CTPO_LOCAL_EMAIL: 'tester@example.com',
      CTPO_POLL_INTERVAL_MS: '1500',
      CTPO_ALLOW_PRIVATE_TARGETS: '',
      CTPO_LOCAL_PASSWORD: '',
    });
    try {
      const [, origin] = await waitFor(started.output, /Open\s+(https:\/\/localhost:\d+)\//);
      expect(started.output()).toContain('Sign in     tester@example.com / ctpo-local');
      expect(started.output()).toMatch(/private and loopback sites allowed \(CTPO_ALLOW_PRIVATE_TARGETS=1\)/);
      expect(started.output()).toContain('Press Ctrl-C to stop.');
      expect(started.output()).toMatch(/Accessibility (axe-core in headless Chromium|no Chromium found)/);
      const [, demo] = started.output().match(/Demo course Client Site URL (http:\/\/localhost:\d+), Org Unit ID 6606/) ?? [];
      expect(started.output()).toContain('Brightspace Username demo, Brightspace Password demo-password');
      const versions = await fetch(`${demo!.replace('localhost', '127.0.0.1')}/d2l/api/versions/`);
      expect(versions.status).toBe(200);

      const client = httpsClient(readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'));
      const config = (await (await client.fetch(`${origin!}/config.json`)).json()) as Record<string, unknown>;
      expect(config).toMatchObject({ apiUrl: origin, oauthDomain: new URL(origin!).host, pollIntervalMs: 1500 });
      await client.close();

      started.child.kill('SIGINT');
      expect(await started.exited).toBe(0);
      expect(started.output()).toContain('CTPO stopped.');
    } finally {
      started.child.kill('SIGKILL');
    }
  }, 120_000);

  it('starts without the demo course when its port is taken, and says so', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const started = run(['--no-build'], { CTPO_PORT: '0', CTPO_DEMO_PORT: String(port), CTPO_DATA_DIR: dataDir });
    try {
      await waitFor(started.output, /Press Ctrl-C to stop\./);
      expect(started.output()).toContain(`Demo course not started: port ${port} is in use. Choose another with CTPO_DEMO_PORT.`);
      started.child.kill('SIGINT');
      expect(await started.exited).toBe(0);
    } finally {
      started.child.kill('SIGKILL');
      blocker.close();
    }
  }, 120_000);

  it('refuses a bad setting with a clear message and exit code 1', async () => {
    const failed = run(['--no-build'], { CTPO_PORT: 'eighty', CTPO_DATA_DIR: dataDir });
    expect(await failed.exited).toBe(1);
    expect(failed.output()).toContain('CTPO_PORT must be a whole number from 0 to 65535; it is "eighty".');
  });

  it('explains a port already in use', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const failed = run(['--no-build'], { CTPO_PORT: String(port), CTPO_DATA_DIR: dataDir });
      expect(await failed.exited).toBe(1);
      expect(failed.output()).toContain(`Port ${port} is already in use. Is CTPO already running?`);
    } finally {
      blocker.close();
    }
  });
});
