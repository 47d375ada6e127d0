// The accessibility runner in headless Chromium: verdicts that need a real browser (contrast and its
// look-alikes, the rules that used to throw in jsdom), the network rules of its pages (every request
// through the guard, the session for the site's own files only, never in the browser), a topic
// that hangs its page, the browser's place behind the engine in the CPU's queue, and its processes
// and their memory (one renderer per page, its garbage collected). Needs Chromium
// (Debian's chromium, or CTPO_CHROMIUM), as CI installs it.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BROWSER_NICENESS, browserNicenessFromEnv, findChromium } from '../../../api/a11y/a11y-runner.ts';
import type { AxeOutcome } from '../../../api/a11y/axe-rules.ts';
import { chromium } from 'playwright-core';
import { BrowserRunner, MAX_PAGE_REQUESTS } from '../../../api/a11y/browser-runner.ts';
import { PageResources } from '../../../api/a11y/page-resources.ts';
import { sandboxedLaunchOptions } from '../../../api/a11y/sandboxed-chromium.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { pageCheckFindings } from '../../../api/checks/page-checks.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';
import { chromiumChildren } from '../support/chromium.ts';

const CHROMIUM = findChromium();
const SESSION_COOKIE = 'd2lSessionVal=s3cr3t-session-value';

interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

/** A course site on loopback: its files, one that sets a cookie, and an echo of what a page sends. */
async function startSite(): Promise<{ origin: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const files: Record<string, [string, string]> = {
    '/content/enforced/1-A/course.css': ['text/css', '.muted { color: #aaaaaa; } .strong { color: #222222; } .hero { background: #888 url(hero.png); color: #ffffff; padding: 2em; }'],
    '/content/enforced/1-A/hero.png': ['image/png', 'not really a png'],
    '/shared/template/logo.png': ['image/png', 'logo'],
  };
  // Files the site answers only to the session, as Brightspace does: another course's, a template's, and one of the course's own.
  const private_: Record<string, string> = {
    '/content/enforced/2-B/secret.html': 'Another course: exam answers',
    '/content/enforced/12-C/secret.html': 'Org unit 12: exam answers',
    '/shared/private/secret.txt': 'A template file: exam answers',
    '/content/enforced/1-A/own.txt': 'Own course file',
    '/shared/private/secret.css': '.answers::after { content: "exam answers B C A D"; }',
  };
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    seen.push({ path, headers: request.headers });
    const gated = private_[path];
    if (gated !== undefined) {
      const allowed = request.headers.cookie === SESSION_COOKIE;
      response.writeHead(allowed ? 200 : 403, { 'content-type': path.endsWith('.css') ? 'text/css' : 'text/plain' });
      response.end(allowed ? gated : 'Not authorised');
      return;
    }
    const file = files[path.split('?')[0]!];
    if (file !== undefined) {
      response.writeHead(200, { 'content-type': file[0], 'set-cookie': 'tracker=from-the-site; Path=/' });
      response.end(file[1]);
      return;
    }
    response.writeHead(path.startsWith('/content/enforced/1-A/echo') ? 204 : 404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const page = (body: string, head = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Topic</title>${head}</head><body>${body}</body></html>`;
const ids = (results: AxeOutcome['violations']) => results.map((result) => result.id).sort();

let site: Awaited<ReturnType<typeof startSite>>;
let http: GuardedHttpClient;
let resources: PageResources;
let runner: BrowserRunner;
let topic = 0;
/** Checks HTML as a whole page at a new address of the site. */
const check = (html: string, whole = true) => runner.run({ html, url: new URL(`/content/enforced/1-A/topic-${++topic}.html`, site.origin), whole, title: 'Topic' });

beforeAll(async () => {
  if (CHROMIUM === undefined) {
    throw new Error('These tests need Chromium: install Debian\'s "chromium" package, or set CTPO_CHROMIUM to a Chromium binary.');
  }
  site = await startSite();
  http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true }, timeoutMs: 5_000 });
  resources = new PageResources({ http, siteOrigin: new URL(site.origin), orgUnitId: 1, sessionHeaders: () => ({ cookie: SESSION_COOKIE }) });
  runner = new BrowserRunner({ executablePath: CHROMIUM, resources, enhancedContrast: false, timeoutMs: 100_000 });
}, 120_000);

afterAll(async () => {
  await runner?.close();
  await http?.close();
  await site?.close();
});

describe('colour contrast in the browser', () => {
  it('finds low contrast from inline styles and from a course stylesheet, and passes their dark twins', async () => {
    const outcome = await check(page(
      '<p style="color:#999999">Grey on white, 2.8:1.</p><p class="muted">Light grey from the course stylesheet.</p><p class="strong">Dark text from the stylesheet.</p><p style="color:#595959">Dark grey, 7:1.</p>',
      '<link rel="stylesheet" href="course.css">',
    ));
    const contrast = outcome.violations.find((result) => result.id === 'color-contrast');
    expect(contrast?.count).toBe(2);
    expect(contrast?.nodes.map((node) => node.html)).toEqual(['<p style="color:#999999">Grey on white, 2.8:1.</p>', '<p class="muted">Light grey from the course stylesheet.</p>']);
    expect(contrast?.nodes[1]?.selector).toBe('.muted');
    // The stylesheet came through the engine, with the session: it is one of the site's own files.
    expect(site.seen.find((request) => request.path === '/content/enforced/1-A/course.css')?.headers.cookie).toBe(SESSION_COOKIE);
  }, 120_000);

  it('judges large text at 3:1 and leaves disabled controls alone', async () => {
    // #949494 on white is 3.03:1: enough for large text (24px, or 18.66px bold), not for body text.
    const outcome = await check(page(
      '<p style="color:#949494;font-size:24px">Large text</p><p style="color:#949494;font-size:18.7px;font-weight:bold">Large bold text</p>' +
        '<button disabled style="color:#cccccc">Unavailable</button><label style="color:#cccccc"><input disabled> Disabled field</label>' +
        '<p style="color:#949494">Small text</p>',
    ));
    const contrast = outcome.violations.find((result) => result.id === 'color-contrast');
    expect(contrast?.nodes.map((node) => node.html)).toEqual(['<p style="color:#949494">Small text</p>']);
  }, 120_000);

  it('asks for a review of text over an image instead of guessing', async () => {
    const outcome = await check(page('<div class="hero"><p>Welcome to week 1</p></div>', '<link rel="stylesheet" href="course.css">'));
    expect(outcome.violations.map((result) => result.id)).not.toContain('color-contrast');
    const review = outcome.incomplete.find((result) => result.id === 'color-contrast');
    expect(review?.nodes[0]?.why).toMatch(/background image/);
  }, 120_000);

  it('checks AAA enhanced contrast (7:1) only when asked', async () => {
    const html = page('<p style="color:#767676">4.5:1: enough for AA, not for AAA.</p>');
    expect(ids((await check(html)).violations)).toEqual([]);
    const strict = new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: true });
    try {
      const outcome = await strict.run({ html, url: new URL('/content/enforced/1-A/aaa.html', site.origin), whole: true });
      expect(ids(outcome.violations)).toEqual(['color-contrast-enhanced']);
    } finally {
      await strict.close();
    }
  }, 120_000);
});

describe('rules that threw in jsdom decide in the browser', () => {
  it.each([
    ['aria-hidden-focus', '<div aria-hidden="true"><a href="/x">Focusable but hidden</a></div>', '<div aria-hidden="true"><a href="/x" tabindex="-1">Not focusable</a></div>'],
    ['label-content-name-mismatch', '<button aria-label="Submit">Send now</button>', '<button aria-label="Send now to your teacher">Send now</button>'],
    ['object-alt', '<object data="movie.swf"></object>', '<object data="movie.swf" title="The intro movie"></object>'],
    ['color-contrast', '<p style="color:#aaaaaa">Low contrast</p>', '<p style="color:#333333">Good contrast</p>'],
  ])('%s: a failing case and a passing one', async (rule, failing, passing) => {
    const failed = await check(page(failing));
    expect(failed.errors).toEqual([]);
    expect(ids(failed.violations)).toContain(rule);
    const passed = await check(page(passing));
    expect(passed.errors).toEqual([]);
    expect(ids(passed.violations)).not.toContain(rule);
    expect(passed.incomplete.map((result) => result.id)).not.toContain(rule);
  }, 120_000);

  it('runs scripts as a student\'s browser does: what a template builds is checked, in a document of its own', async () => {
    const single = new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: false, pages: 1 });
    const at = (name: string) => new URL(`/content/enforced/1-A/${name}.html`, site.origin);
    try {
      await single.run({ html: page('<p>First.</p>'), url: at('first'), whole: true });
      const outcome = await single.run({ html: page('<div id="built"></div><script>document.getElementById("built").innerHTML = \'<img src="chart.png">\'; window.leftOver = setInterval(() => document.body.append(document.createElement("button")), 10);</script>'), url: at('scripted'), whole: true });
      expect(ids(outcome.violations)).toContain('image-alt');
      // The next item gets a fresh document: nothing of the script above runs on it.
      const after = await single.run({ html: page('<p>Plain text.</p>'), url: at('after'), whole: true });
      expect(ids(after.violations)).toEqual([]);
      // A plain item after a plain one is written into the same document, at its own address.
      const plain = await single.run({ html: page('<p>More text, <a href="other.html">a relative link</a>.</p>'), url: at('plain'), whole: true });
      expect(ids(plain.violations)).toEqual([]);
      expect(single.stats).toEqual({ fresh: 3, reused: 1, collected: 0 });
    } finally {
      await single.close();
    }
  }, 120_000);
});

describe('the network of a page', () => {
  it('never lets the session or a cookie into the browser, and sends the session to the site\'s files only', async () => {
    site.seen.length = 0;
    await check(page(
      '<img src="/shared/template/logo.png" alt="Logo"><img src="/d2l/api/lp/1.30/users/whoami.png" alt="Who">' +
        '<script>window.addEventListener("load", () => fetch("echo?cookie=" + encodeURIComponent(document.cookie)));</script>',
      '<link rel="stylesheet" href="course.css">',
    ));
    const echo = site.seen.find((request) => request.path.startsWith('/content/enforced/1-A/echo'));
    // The site answered every file with a Set-Cookie: the browser kept none, so the page sees none.
    expect(echo?.path).toBe('/content/enforced/1-A/echo?cookie=');
    expect(site.seen.find((request) => request.path === '/shared/template/logo.png')?.headers.cookie).toBe(SESSION_COOKIE);
    // Not one of the site's files: no session, even on the site.
    expect(site.seen.find((request) => request.path.startsWith('/d2l/api/'))?.headers.cookie).toBeUndefined();
  }, 120_000);

  it('sends the session to the course\'s own files only: a script\'s fetch of another course\'s file or a template\'s gets no cookie and no body', async () => {
    site.seen.length = 0;
    // The script reads each file and writes what it got into the page, where the probe reads it.
    const read = ['/content/enforced/2-B/secret.html', '/content/enforced/12-C/secret.html', '/shared/private/secret.txt', '/content/enforced/1-A/own.txt'];
    const outcome = await check(page(
      read.map((_, index) => `<p id="read-${index}">waiting</p>`).join('') +
        `<script>${JSON.stringify(read)}.forEach((path, index) => { const xhr = index === 2;
          const shown = (status, body) => { document.getElementById('read-' + index).textContent = status + ' ' + body; };
          if (xhr) { const request = new XMLHttpRequest(); request.open('GET', path); request.onload = () => shown(request.status, request.responseText); request.send(); }
          else fetch(path).then(async (answer) => shown(answer.status, await answer.text()), () => shown('failed', '')); });</script>`,
    ));
    const texts = outcome.page?.texts.map((fact) => fact.text) ?? [];
    expect(texts).toEqual(expect.arrayContaining(['403 Not authorised', '200 Own course file']));
    expect(texts.filter((text) => text === '403 Not authorised')).toHaveLength(3);
    expect(texts.join(' ')).not.toMatch(/exam answers/);
    const cookieOf = (path: string) => site.seen.find((request) => request.path === path)?.headers.cookie;
    expect(cookieOf('/content/enforced/2-B/secret.html')).toBeUndefined();
    expect(cookieOf('/content/enforced/12-C/secret.html')).toBeUndefined();
    expect(cookieOf('/shared/private/secret.txt')).toBeUndefined();
    expect(cookieOf('/content/enforced/1-A/own.txt')).toBe(SESSION_COOKIE);
  }, 120_000);

  it('sends no session for a template file a script made an element for: it cannot read its rules', async () => {
    site.seen.length = 0;
    const outcome = await check(page(
      '<p id="read">waiting</p><script>const link = document.createElement("link"); link.rel = "stylesheet"; link.href = "/shared/private/secret.css";' +
        ' link.onload = link.onerror = () => { let text = ""; try { text = [...link.sheet.cssRules].map((rule) => rule.cssText).join(" "); } catch { text = "unreadable"; }' +
        ' document.getElementById("read").textContent = "read: " + (text || "nothing"); }; document.head.append(link);</script>',
    ));
    expect(site.seen.find((request) => request.path === '/shared/private/secret.css')?.headers.cookie).toBeUndefined();
    const texts = outcome.page?.texts.map((fact) => fact.text).join(' ') ?? '';
    expect(texts).toMatch(/read: /);
    expect(texts).not.toMatch(/exam answers/);
  }, 120_000);

  it('sends at most MAX_PAGE_REQUESTS of a page\'s requests, refuses the rest at once, and says so', async () => {
    site.seen.length = 0;
    const url = new URL(`/content/enforced/1-A/topic-${++topic}.html`, site.origin);
    const outcome = await runner.run({
      html: page('<p id="done">waiting</p><script>const all = []; for (let index = 0; index < 2000; index++) all.push(fetch("echo?n=" + index).catch(() => {}));' +
        ' Promise.all(all).then(() => { document.getElementById("done").textContent = "all 2000 answered or refused"; });</script>'),
      url,
      whole: true,
    });
    const sent = site.seen.filter((request) => request.path.startsWith('/content/enforced/1-A/echo')).length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(MAX_PAGE_REQUESTS);
    // Every request had its answer or its refusal: none was left waiting.
    expect(outcome.page?.texts.map((fact) => fact.text)).toContain('all 2000 answered or refused');
    expect(outcome.page?.requestCap).toEqual({ max: MAX_PAGE_REQUESTS, refused: 2000 - sent });
    const note = pageCheckFindings(outcome.page, true, topicPlace({ ModuleId: 1, Title: 'M' }, { TopicId: 2, Title: 'T' }), url.href).filter((found) => found.check === 'limit.page-requests');
    expect(note).toHaveLength(1);
    expect(note[0]?.severity).toBe('info');
    expect(formatMessage(note[0]!.message)).toBe(`This page asked for more than ${MAX_PAGE_REQUESTS} files; CTPO refused the other ${(2000 - sent).toLocaleString('en')} and checked the page as it stood without them.`);
    // The next page has its own allowance.
    const next = await check(page('<img src="hero.png" alt="Hero">'));
    expect(next.page?.requestCap).toBeUndefined();
  }, 120_000);

  it('refuses a private address through the guard, and no connection leaves the browser', async () => {
    const connections: string[] = [];
    const target = createTcpServer((socket) => {
      connections.push(String(socket.remotePort));
      socket.destroy();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    const guarded = new GuardedHttpClient({ policy: { allowPrivateTargets: false, allowHttp: true } });
    const publicResources = new PageResources({ http: guarded, siteOrigin: new URL('https://school.example.com'), orgUnitId: 1, sessionHeaders: () => ({ cookie: SESSION_COOKIE }) });
    const strict = new BrowserRunner({ executablePath: CHROMIUM!, resources: publicResources, enhancedContrast: false });
    try {
      const inside = `127.0.0.1:${port}`;
      const outcome = await strict.run({
        url: new URL('https://school.example.com/content/enforced/1-A/private.html'),
        whole: true,
        html: page(
          `<img src="http://${inside}/a.png" alt="A"><iframe title="Tool" src="http://${inside}/frame"></iframe>` +
            `<script>fetch("http://${inside}/x").catch(() => {}); try { new WebSocket("ws://${inside}/ws"); } catch {} navigator.sendBeacon("http://${inside}/b");</script>`,
          `<link rel="preconnect" href="http://${inside}"><link rel="dns-prefetch" href="http://${inside}"><link rel="stylesheet" href="http://localhost:${port}/s.css">`,
        ),
      });
      expect(outcome.errors).toEqual([]);
      expect(publicResources.refused).toBeGreaterThanOrEqual(3);
      expect(publicResources.answered).toBe(0);
      // A connection attempt would have been accepted at once; give a late one (the socket) a moment.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(connections).toEqual([]);
    } finally {
      await strict.close();
      await guarded.close();
      await new Promise((resolve) => target.close(resolve));
    }
  }, 120_000);
});

/** The pid of a process whose command line names `program` (a script's interpreter lists it first). */
function processRunning(program: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(program)) return Number(entry);
    } catch {
      // ended meanwhile
    }
  }
  return undefined;
}

describe('the browser\'s share of the CPU', () => {
  it('puts the browser\'s scheduling group ten nice steps behind the engine, where Linux has autogroups', async () => {
    await check(page('<p>x</p>'));
    if (!existsSync('/proc/self/autogroup')) {
      expect(runner.schedulingNice).toBeUndefined();
      return;
    }
    const expected = Math.min(19, getPriority() + BROWSER_NICENESS);
    expect(runner.schedulingNice).toBe(expected);
    // The kernel's view: Chromium's session is a group of its own, with that nice value.
    const browserGroup = readFileSync(`/proc/${runner.pid}/autogroup`, 'utf8');
    expect(browserGroup).toMatch(new RegExp(`nice ${expected}\\s*$`));
    expect(browserGroup.split(' ')[0]).not.toBe(readFileSync('/proc/self/autogroup', 'utf8').split(' ')[0]);
  }, 120_000);

  it('puts the browser behind while it is still starting, before it answers', async () => {
    if (!existsSync('/proc/self/autogroup')) return;
    // A stand-in that starts like a browser (in a session of its own, from Playwright) and never
    // answers: only a group lowered before the launch ends can be seen lowered here.
    const dir = mkdtempSync(join(tmpdir(), 'ctpo-slow-browser-'));
    // Open to others: where this process is root, the browser runs as an unprivileged user.
    chmodSync(dir, 0o755);
    const executablePath = join(dir, 'never-answers');
    writeFileSync(executablePath, '#!/bin/sh\nsleep 600\n', { mode: 0o755 });
    const starting = new BrowserRunner({ executablePath, resources, enhancedContrast: false, niceness: 10 });
    const launched = starting.version().then(() => 'answered', () => 'failed');
    const expected = Math.min(19, getPriority() + 10);
    let pid: number | undefined;
    try {
      await vi.waitFor(
        () => {
          pid ??= processRunning(executablePath);
          expect(pid).toBeDefined();
          expect(readFileSync(`/proc/${pid}/autogroup`, 'utf8')).toMatch(new RegExp(`nice ${expected}\\s*$`));
        },
        { timeout: 60_000, interval: 20 },
      );
      expect(starting.schedulingNice).toBe(expected);
    } finally {
      if (pid !== undefined) process.kill(-pid, 'SIGKILL');
      expect(await launched).toBe('failed');
      await starting.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('leaves the browser as it starts when told to (CTPO_BROWSER_NICENESS=off)', async () => {
    const asStarted = new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: false, niceness: null });
    try {
      await asStarted.run({ html: page('<p>x</p>'), url: new URL('/content/enforced/1-A/as-started.html', site.origin), whole: true });
      expect(asStarted.schedulingNice).toBeUndefined();
      if (existsSync('/proc/self/autogroup')) expect(readFileSync(`/proc/${asStarted.pid}/autogroup`, 'utf8')).toMatch(/nice 0\s*$/);
    } finally {
      await asStarted.close();
    }
  }, 120_000);

  it('reads its steps from the environment: 0 to 19, off, and the default for anything else', () => {
    expect(browserNicenessFromEnv({})).toBe(BROWSER_NICENESS);
    expect(browserNicenessFromEnv({ CTPO_BROWSER_NICENESS: '5' })).toBe(5);
    expect(browserNicenessFromEnv({ CTPO_BROWSER_NICENESS: ' 19 ' })).toBe(19);
    expect(browserNicenessFromEnv({ CTPO_BROWSER_NICENESS: '0' })).toBe(0);
    expect(browserNicenessFromEnv({ CTPO_BROWSER_NICENESS: 'off' })).toBeNull();
    for (const bad of ['20', '-5', '2.5', 'high', '']) expect(browserNicenessFromEnv({ CTPO_BROWSER_NICENESS: bad })).toBe(BROWSER_NICENESS);
  });
});

/** The value of the last `--<name>=` switch on a process's command line (the one Chromium keeps). */
function lastSwitch(pid: number, name: string): string[] {
  const values = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg.startsWith(`--${name}=`));
  return values.at(-1)?.slice(name.length + 3).split(',') ?? [];
}

/** The renderer processes of a browser (its process group). */
function renderersOf(browserPid: number): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      return group === browserPid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

describe('the browser\'s processes', () => {
  it('keeps every feature switch playwright-core passes, with its own added (Chromium keeps only the last of each)', async () => {
    const marker = `--ctpo-test-${process.pid}-${Date.now()}`;
    const plain = await chromium.launch({ ...sandboxedLaunchOptions(CHROMIUM!), args: [marker] });
    try {
      const pid = processRunning(marker);
      expect(pid).toBeDefined();
      const theirs = { enable: lastSwitch(pid!, 'enable-features'), disable: lastSwitch(pid!, 'disable-features') };
      expect(theirs.disable.length).toBeGreaterThan(0);
      await check(page('<p>Warm</p>'));
      const ours = { enable: lastSwitch(runner.pid!, 'enable-features'), disable: lastSwitch(runner.pid!, 'disable-features') };
      expect(ours.enable).toEqual(expect.arrayContaining(theirs.enable));
      expect(ours.disable).toEqual(expect.arrayContaining([...theirs.disable, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));
    } finally {
      await plain.close();
    }
  }, 120_000);

  it('has one renderer per page: no hidden address-bar pop-ups, no spare', async () => {
    const two = new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: false, pages: 2 });
    try {
      const item = (n: number) => ({ html: page(`<p>Item ${n}</p>`), url: new URL(`/content/enforced/1-A/pair-${n}.html`, site.origin), whole: true });
      await Promise.all([1, 2, 3, 4].map((n) => two.run(item(n))));
      expect(renderersOf(two.pid!)).toHaveLength(2);
    } finally {
      await two.close();
    }
  }, 120_000);
});

/** The proportional set size of a process, in MB. */
function pssOf(pid: number): number {
  return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1]) / 1024;
}

describe('a page\'s memory', () => {
  it('stays near where it started over many items: the page\'s garbage is collected every 25 items', async () => {
    const one = new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: false, pages: 1 });
    const links = (n: number) => Array.from({ length: 60 }, (_, k) => `<li><a href="/content/enforced/1-A/reading-${n}-${k}.html">Reading ${k} of week ${n}</a></li>`).join('');
    const item = (n: number) => ({ html: page(`<h1>Week ${n}</h1><ul>${links(n)}</ul>`), url: new URL(`/content/enforced/1-A/week-${n}.html`, site.origin), whole: true });
    try {
      await one.run(item(0));
      const first = pssOf(renderersOf(one.pid!)[0]!);
      // The 51st item is checked after the second collection.
      for (let n = 1; n <= 51; n++) await one.run(item(n));
      const last = pssOf(renderersOf(one.pid!)[0]!);
      expect(one.stats.collected).toBe(2);
      // Left to itself, the renderer grew by 120-160 MB over these items.
      expect(last - first).toBeLessThan(40);
    } finally {
      await one.close();
    }
  }, 300_000);
});

describe('a topic that hangs its page', () => {
  it('is given up after the time limit, and the next topic is checked', async () => {
    const before = await chromiumChildren();
    const impatient = new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: false, timeoutMs: 10_000 });
    try {
      const hanging = impatient.run({ html: page('<p>Start</p><script>for (;;) {}</script>'), url: new URL('/content/enforced/1-A/hang.html', site.origin), whole: true });
      await expect(hanging).rejects.toThrow('Accessibility checks did not finish within 10 s.');
      const next = await impatient.run({ html: page('<img src="x.png">'), url: new URL('/content/enforced/1-A/after.html', site.origin), whole: true });
      expect(ids(next.violations)).toContain('image-alt');
    } finally {
      await impatient.close();
    }
    expect(await chromiumChildren()).toEqual(before);
  }, 120_000);

  it('refuses the items still waiting for a page once closed, and any item after', async () => {
    const one = new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: false, pages: 1 });
    const item = (n: number) => ({ html: page(`<p>Item ${n}</p>`), url: new URL(`/content/enforced/1-A/closing-${n}.html`, site.origin), whole: true });
    await one.run(item(0));
    const under = one.run(item(1));
    under.catch(() => undefined); // the browser goes away under it: its fate is not the point here
    const waiting = Promise.allSettled([one.run(item(2)), one.run(item(3))]);
    await one.close();
    for (const result of await waiting) {
      expect(result).toMatchObject({ status: 'rejected', reason: { message: 'The accessibility checker is closed.' } });
    }
    await expect(one.run(item(4))).rejects.toThrow('The accessibility checker is closed.');
  }, 120_000);

  it('leaves no Chromium process behind once closed', async () => {
    const own = new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: false });
    await own.run({ html: page('<p>x</p>'), url: new URL('/content/enforced/1-A/x.html', site.origin), whole: true });
    const before = await chromiumChildren();
    // The runner knows its browser's process, which it kills with its group if it will not close.
    expect(before).toContain(own.pid);
    await own.close();
    const after = await chromiumChildren();
    expect(before.length).toBe(after.length + 1);
    expect(after).not.toContain(own.pid);
  }, 120_000);
});
