// Checks a page cannot touch: the engines (axe-core, IBM's) and the page checks' probe run in an
// isolated world of the page, so a course page whose scripts replace the engines, or patch the
// prototypes and the Promise they use, still gets its violations reported. Needs Chromium (Debian's
// chromium, or CTPO_CHROMIUM), as CI installs it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../../api/a11y/a11y-runner.ts';
import { BrowserRunner } from '../../../api/a11y/browser-runner.ts';
import { PageResources } from '../../../api/a11y/page-resources.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { pageCheckFindings } from '../../../api/checks/page-checks.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';

const CHROMIUM = findChromium();
const PLACE = topicPlace({ ModuleId: 1, Title: 'M' }, { TopicId: 2, Title: 'T' });

/** An image without alt text, a button without a name, and alt text that starts "Image of". */
const DEFECTS = '<p><img src="chart.png" width="40" height="40"> Enrolment</p><button></button><p><img src="map.png" alt="Image of a map" width="40" height="40"></p>';
const page = (script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Topic</title><script>${script}</script></head><body>${DEFECTS}</body></html>`;

/** What a hostile page does to the engines in its own world. */
const TAMPERING = {
  // Stubs that find nothing, which the engines' own scripts cannot overwrite.
  'replaces window.axe and window.ace with stubs that find nothing': `
    const none = { run: async () => ({ violations: [], incomplete: [] }), configure() {} };
    Object.defineProperty(window, 'axe', { get: () => none, set() {}, configurable: false });
    const ace = { Checker: class { constructor() { this.engine = { getRule() {}, getHelp() { return ''; } }; } getGuidelines() { return [{ id: 'WCAG_2_2', checkpoints: [] }]; } addGuideline() {} async check() { return { results: [] }; } } };
    Object.defineProperty(window, 'ace', { get: () => ace, set() {}, configurable: false });`,
  'patches Array.prototype.push to drop what is pushed': 'Array.prototype.push = function () { return this.length; };',
  'patches Element.prototype.getAttribute to give every image alt text': `
    const getAttribute = Element.prototype.getAttribute;
    Element.prototype.getAttribute = function (name) { return name === 'alt' ? 'A chart' : getAttribute.call(this, name); };
    Element.prototype.hasAttribute = function () { return true; };`,
  'patches Promise.prototype.then so that nothing awaited ever settles': 'Promise.prototype.then = function () { return new Promise(() => {}); };',
};

let server: Server;
let origin: string;
let http: GuardedHttpClient;
let runner: BrowserRunner;
let topic = 0;

beforeAll(async () => {
  if (CHROMIUM === undefined) {
    throw new Error('These tests need Chromium: install Debian\'s "chromium" package, or set CTPO_CHROMIUM to a Chromium binary.');
  }
  server = createServer((_request, response) => {
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true }, timeoutMs: 5_000 });
  const resources = new PageResources({ http, siteOrigin: new URL(origin), orgUnitId: 1, sessionHeaders: () => ({}) });
  runner = new BrowserRunner({ executablePath: CHROMIUM, resources, enhancedContrast: false, timeoutMs: 100_000, pages: 1 });
}, 120_000);

afterAll(async () => {
  await runner?.close();
  await http?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('a page that tampers with the checks', () => {
  it.each(Object.entries(TAMPERING))('still gets its violations reported when its script %s', async (_name, script) => {
    const url = new URL(`/content/enforced/1-A/topic-${++topic}.html`, origin);
    const outcome = await runner.run({ html: page(script), url, whole: true, title: 'Topic' });
    expect(outcome.engineErrors).toBeUndefined();
    expect(outcome.errors).toEqual([]);
    // axe's verdicts, IBM's beside them, and the page checks' from the probe.
    expect(outcome.violations.map((result) => result.id)).toEqual(expect.arrayContaining(['button-name', 'image-alt']));
    expect(outcome.ibm?.map((result) => result.id)).toEqual(expect.arrayContaining(['img_alt_valid']));
    expect(pageCheckFindings(outcome.page, true, PLACE, url.href).map((finding) => finding.check)).toContain('a11y.alt-image-of');
  }, 120_000);
});
