// The engine's Chromium runs course pages inside its own sandbox, also when this process is root (as
// CI's is): its command line has no --no-sandbox, its renderers sit in user and PID namespaces of
// their own under seccomp-bpf, and Chromium's own sandbox page says it is adequately sandboxed.
// Needs Chromium (Debian's chromium, or CTPO_CHROMIUM), as CI installs it.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../../api/a11y/a11y-runner.ts';
import { BrowserRunner } from '../../../api/a11y/browser-runner.ts';
import { PageResources } from '../../../api/a11y/page-resources.ts';
import { sandboxedLaunchOptions } from '../../../api/a11y/sandboxed-chromium.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';

const CHROMIUM = findChromium();
let http: GuardedHttpClient;
let runner: BrowserRunner;

beforeAll(() => {
  if (CHROMIUM === undefined) {
    throw new Error('These tests need Chromium: install Debian\'s "chromium" package, or set CTPO_CHROMIUM to a Chromium binary.');
  }
  http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true }, timeoutMs: 5_000 });
  const resources = new PageResources({ http, siteOrigin: new URL('http://127.0.0.1:9'), orgUnitId: 1, sessionHeaders: () => ({}) });
  runner = new BrowserRunner({ executablePath: CHROMIUM, resources, enhancedContrast: false, timeoutMs: 100_000 });
});

afterAll(async () => {
  await runner?.close();
  await http?.close();
});

// A zygote's children rename themselves: their command line becomes one string joined by spaces.
const commandLineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
const statusOf = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');

/** The processes of a browser's process group of one type (`renderer`, `zygote`...), or all of them. */
function processesOf(browserPid: number, type?: string): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      return group === browserPid && (type === undefined || commandLineOf(pid).includes(`--type=${type} `));
    } catch {
      return false;
    }
  });
}

describe('the browser\'s sandbox', () => {
  it('runs a course page in sandboxed renderers: no --no-sandbox anywhere, namespaces of their own and seccomp-bpf', async () => {
    const html = '<!doctype html><html lang="en"><head><title>Topic</title></head><body><p>A page</p></body></html>';
    await runner.run({ html, url: new URL('http://127.0.0.1:9/content/enforced/1-A/sandbox.html'), whole: true, title: 'Topic' });
    const browser = runner.pid!;
    expect(browser).toBeDefined();
    const renderers = processesOf(browser, 'renderer');
    expect(renderers.length).toBeGreaterThan(0);
    for (const pid of [browser, ...renderers, ...processesOf(browser, 'zygote')]) expect(commandLineOf(pid)).not.toMatch(/--no-sandbox\b/);
    // Not root, even where this process is.
    expect(/^Uid:\s+(\d+)/m.exec(statusOf(browser))?.[1]).not.toBe('0');
    for (const pid of renderers) {
      expect(/^Seccomp:\s+(\d)/m.exec(statusOf(pid))?.[1], 'seccomp-bpf filter mode').toBe('2');
      expect(readlinkSync(`/proc/${pid}/ns/user`)).not.toBe(readlinkSync(`/proc/${browser}/ns/user`));
      expect(readlinkSync(`/proc/${pid}/ns/pid`)).not.toBe(readlinkSync(`/proc/${browser}/ns/pid`));
    }
  }, 120_000);

  it('hands none of this process\'s secrets to the browser: its processes get an allow-listed environment', async () => {
    // As the command line had the password, and as the server has its own secrets.
    const canaries = { BRIGHTSPACE_PASSWORD: 'canary-password-4417', CTPO_LOCAL_PASSWORD: 'canary-local-4417', AWS_SECRET_ACCESS_KEY: 'canary-aws-4417' };
    const saved = Object.fromEntries(Object.keys(canaries).map((name) => [name, process.env[name]]));
    Object.assign(process.env, canaries);
    const resources = new PageResources({ http, siteOrigin: new URL('http://127.0.0.1:9'), orgUnitId: 1, sessionHeaders: () => ({}) });
    const own = new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: false, timeoutMs: 100_000 });
    try {
      const html = '<!doctype html><html lang="en"><head><title>Topic</title></head><body><p>A page</p></body></html>';
      await own.run({ html, url: new URL('http://127.0.0.1:9/content/enforced/1-A/environment.html'), whole: true, title: 'Topic' });
      const browser = own.pid!;
      const processes = [...new Set([browser, ...processesOf(browser)])];
      expect(processesOf(browser, 'renderer').length).toBeGreaterThan(0);
      const environments = processes.map((pid) => readFileSync(`/proc/${pid}/environ`, 'utf8'));
      for (const environment of environments) {
        for (const canary of Object.values(canaries)) expect(environment).not.toContain(canary);
      }
      // What the browser does get: where programs are, and no more of this process's settings than it needs.
      expect(environments[0]!.split('\0').some((entry) => entry.startsWith('PATH='))).toBe(true);
    } finally {
      await own.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 120_000);

  it('is reported on by Chromium itself (chrome://sandbox)', async () => {
    const browser = await chromium.launch(sandboxedLaunchOptions(CHROMIUM!));
    try {
      const page = await browser.newPage();
      await page.goto('chrome://sandbox');
      const text = await page.textContent('body');
      expect(text).toMatch(/Seccomp-BPF sandbox\s*Yes/);
      expect(text).toContain('You are adequately sandboxed.');
    } finally {
      await browser.close();
    }
  }, 120_000);
});
