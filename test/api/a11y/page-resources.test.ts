// How the engine answers a page's requests in the browser: through the guarded client, the session
// for the course's own files only (and the site's templates for what a page names), state-setting
// headers dropped, what a check does not need refused.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageResources, RENDERING_USER_AGENT, addressesNamedIn, type PageRequest } from '../../../api/a11y/page-resources.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';

let server: Server;
let origin: string;
const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
const http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true }, timeoutMs: 5_000 });
let resources: PageResources;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers });
    if (request.url === '/content/enforced/1-A/slow.woff2') return; // never answers
    if (request.url === '/content/enforced/1-A/missing.html' || request.url === '/content/enforced/1-A/gone.mp4') {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<p>Not found</p>');
      return;
    }
    if (request.url?.includes('secret')) {
      // Answered only to the session, as Brightspace does.
      const allowed = request.headers.cookie === 'd2lSessionVal=secret';
      response.writeHead(allowed ? 200 : 403, { 'content-type': 'text/plain' });
      response.end(allowed ? 'exam answers' : 'Not authorised');
      return;
    }
    if (request.url === '/content/enforced/1-A/moved.css') {
      response.writeHead(302, { location: '/content/enforced/1-A/style.css' });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/css', 'set-cookie': 'd2lSessionVal=new; Path=/', 'access-control-allow-origin': '*' });
    response.end(Buffer.from([0x62, 0x6f, 0x64, 0x79, 0xff]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resources = new PageResources({ http, siteOrigin: new URL(origin), orgUnitId: 1, sessionHeaders: () => ({ cookie: 'd2lSessionVal=secret' }), fontTimeoutMs: 300 });
});

afterAll(async () => {
  await http.close();
  await new Promise((resolve) => server.close(resolve));
});

const request = (path: string, overrides: Partial<PageRequest> = {}): PageRequest => ({
  url: new URL(path, origin).href,
  method: 'GET',
  resourceType: 'stylesheet',
  headers: { accept: 'text/css', cookie: 'from-the-page=1', authorization: 'Bearer x', origin: 'http://school.example' },
  ...overrides,
});

describe('PageResources', () => {
  it('reads the site\'s files with the session, through redirects, bytes as they are, without Set-Cookie', async () => {
    const answer = await resources.answer(request('/content/enforced/1-A/moved.css'));
    expect(answer).toMatchObject({ ok: true, status: 200 });
    if (!answer.ok) return;
    expect([...answer.body]).toEqual([0x62, 0x6f, 0x64, 0x79, 0xff]);
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    const hops = seen.filter((entry) => entry.path.startsWith('/content/enforced/1-A/'));
    expect(hops.map((entry) => entry.headers.cookie)).toEqual(['d2lSessionVal=secret', 'd2lSessionVal=secret']);
    // The page's own headers are not passed on, but for the few that change the answer.
    expect(hops[0]!.headers.authorization).toBeUndefined();
    expect(hops[0]!.headers.origin).toBe('http://school.example');
    expect(hops[0]!.headers['user-agent']).toBe(RENDERING_USER_AGENT);
  });

  it('sends no session to the site\'s other paths, and keeps a shared file for the run', async () => {
    seen.length = 0;
    await resources.answer(request('/d2l/api/lp/1.30/users/whoami'));
    expect(seen[0]?.headers.cookie).toBeUndefined();
    await resources.answer(request('/content/enforced/1-A/style.css'));
    await resources.answer(request('/content/enforced/1-A/style.css'));
    expect(seen.filter((entry) => entry.path === '/content/enforced/1-A/style.css')).toHaveLength(1);
  });

  it('sends the session to the run\'s own org unit only, matched whole', async () => {
    const course = new PageResources({ http, siteOrigin: new URL(origin), orgUnitId: 6606, sessionHeaders: () => ({ cookie: 'd2lSessionVal=secret' }) });
    const cookies: Record<string, string | undefined> = {};
    for (const path of [
      '/content/enforced/6606-EVS101/secret.css',
      '/content/enforced/66-X/secret.css',
      '/content/enforced/66061-Y/secret.css',
      '/content/enforced/6606-/secret.css',
      '/content/enforced/6606-EVS101%2F..%2F..%2F66-X/secret.css',
      '/content/enforced/6606-EVS101/../66-X/secret.css',
    ]) {
      seen.length = 0;
      const answer = await course.answer(request(path, { resourceType: 'script' }));
      cookies[path] = seen[0]?.headers.cookie;
      expect(answer.ok && answer.body.toString()).toBe(cookies[path] === undefined ? 'Not authorised' : 'exam answers');
    }
    expect(cookies).toEqual({
      '/content/enforced/6606-EVS101/secret.css': 'd2lSessionVal=secret',
      '/content/enforced/66-X/secret.css': undefined,
      '/content/enforced/66061-Y/secret.css': undefined,
      '/content/enforced/6606-/secret.css': undefined,
      '/content/enforced/6606-EVS101%2F..%2F..%2F66-X/secret.css': undefined,
      '/content/enforced/6606-EVS101/../66-X/secret.css': undefined,
    });
  });

  it('reads the shared templates with the session for what a page names, never for a script\'s fetch, nor from the cache', async () => {
    seen.length = 0;
    const image = await resources.answer(request('/shared/template/secret.png', { resourceType: 'image', named: true }));
    expect(image.ok && image.body.toString()).toBe('exam answers');
    // The same address fetched by a script: asked again, without the session, so the script gets no body.
    for (const resourceType of ['fetch', 'xhr']) {
      const fetched = await resources.answer(request('/shared/template/secret.png', { resourceType }));
      expect(fetched).toMatchObject({ ok: true, status: 403 });
      expect(fetched.ok && fetched.body.toString()).toBe('Not authorised');
    }
    expect(seen.map((entry) => entry.headers.cookie)).toEqual(['d2lSessionVal=secret', undefined, undefined]);
    // The course's own files go with the session whoever asks.
    seen.length = 0;
    const own = await resources.answer(request('/content/enforced/1-A/secret.json', { resourceType: 'fetch' }));
    expect(own.ok && own.body.toString()).toBe('exam answers');
  });

  it('never reads a shared template with the session for an address the page did not name, whatever element asks', async () => {
    // A script that makes a stylesheet, script or image element for a file it chose reads what loads.
    for (const resourceType of ['stylesheet', 'script', 'image', 'font']) {
      seen.length = 0;
      const answer = await resources.answer(request('/shared/private/secret.css', { resourceType }));
      expect(seen.map((entry) => entry.headers.cookie)).toEqual([undefined]);
      expect(answer.ok && answer.body.toString()).toBe('Not authorised');
    }
  });

  it('knows the addresses a page and its stylesheets name', () => {
    const base = 'https://school.example/content/enforced/1-A/week1/page.html';
    // What a script's text or an event handler says is not named by the page.
    const html = `<link rel="stylesheet" href="/shared/template/style.css"><img src='logo.png' srcset="a.png 1x, /shared/b.png 2x"><video poster=poster.jpg></video><div style="background: url(&quot;x.png&quot;)"></div><a href="https://other.example/?a=1&amp;b=2" onclick="this.href = '/shared/private/one.css'">x</a>` +
      `<script>link.href = "/shared/private/two.css";</script><!-- <img src="/shared/private/three.png"> -->`;
    expect(addressesNamedIn(html, base).sort()).toEqual([
      'https://school.example/shared/template/style.css',
      'https://school.example/content/enforced/1-A/week1/logo.png',
      'https://school.example/content/enforced/1-A/week1/poster.jpg',
      'https://other.example/?a=1&b=2',
      'https://school.example/content/enforced/1-A/week1/a.png',
      'https://school.example/shared/b.png',
      'https://school.example/content/enforced/1-A/week1/x.png',
    ].sort());
    const css = `@import "fonts.css"; body { background: url('/shared/bg.png') } @font-face { src: url(font.woff2) }`;
    expect(addressesNamedIn(css, 'https://school.example/shared/template/style.css')).toEqual([
      'https://school.example/shared/template/fonts.css',
      'https://school.example/shared/bg.png',
      'https://school.example/shared/template/font.woff2',
    ]);
  });

  it('refuses what a check does not need', async () => {
    seen.length = 0;
    expect(await resources.answer(request('/content/enforced/1-A/form', { method: 'POST' }))).toEqual({ ok: false, error: 'blocked' });
    expect(await resources.answer(request('/content/enforced/1-A/beacon', { resourceType: 'ping' }))).toEqual({ ok: false, error: 'blocked' });
    expect(seen).toEqual([]);
  });

  it('answers frames, objects and media with the site\'s real status, never their content', async () => {
    seen.length = 0;
    const found = await resources.answer(request('/content/enforced/1-A/handout.html', { resourceType: 'document' }));
    expect(found).toMatchObject({ ok: true, status: 200 });
    expect(found.ok && found.body.toString()).toBe('<!doctype html><title></title>');
    expect(found.ok && found.standIn).toBeUndefined();
    const missing = await resources.answer(request('/content/enforced/1-A/missing.html', { resourceType: 'document' }));
    expect(missing).toMatchObject({ ok: true, status: 404 });
    expect(missing.ok && missing.body.length).toBe(0);
    expect(await resources.answer(request('/content/enforced/1-A/gone.mp4', { resourceType: 'media' }))).toMatchObject({ ok: true, status: 404 });
    // A found video is not downloaded (an empty answer would hold the page's load event).
    expect(await resources.answer(request('/content/enforced/1-A/v.mp4', { resourceType: 'media' }))).toEqual({ ok: false, error: 'failed' });
    expect(seen.some((entry) => entry.path === '/content/enforced/1-A/v.mp4')).toBe(true);
    // The site's own files are asked with the session, as the page's other files are.
    expect(seen.find((entry) => entry.path === '/content/enforced/1-A/missing.html')?.headers.cookie).toBe('d2lSessionVal=secret');
    // Asked once per run.
    await resources.answer(request('/content/enforced/1-A/missing.html', { resourceType: 'document' }));
    expect(seen.filter((entry) => entry.path === '/content/enforced/1-A/missing.html')).toHaveLength(1);
  });

  it('stands in with an empty page, marked as a stand-in, only where the real answer cannot be had', async () => {
    const refused = await resources.answer(request('http://169.254.169.254/latest/frame.html', { resourceType: 'document' }));
    expect(refused).toMatchObject({ ok: true, status: 200, standIn: true });
    expect(refused.ok && refused.body.toString()).toBe('<!doctype html><title></title>');
    expect(resources.standIns).toBe(1);
    // A video that cannot be had fails to load, as it would in a student's browser.
    expect(await resources.answer(request('http://169.254.169.254/latest/v.mp4', { resourceType: 'media' }))).toEqual({ ok: false, error: 'failed' });
  });

  it('gives up on a font that does not come, quickly', async () => {
    expect(await resources.answer(request('/content/enforced/1-A/slow.woff2', { resourceType: 'font' }))).toEqual({ ok: false, error: 'timedout' });
  });
});
