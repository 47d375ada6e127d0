// Checks a page cannot touch: the engines (axe-core, IBM's) and the page checks' probe run in an
// isolated world of the page, so a course page whose scripts replace the engines, or patch the
// prototypes and the Promise they use, still gets its violations reported. Needs Chromium (Debian's
// chromium, or CTPO_CHROMIUM), as CI installs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserRunner } from '../../../api/a11y/browser-runner.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { pageCheckFindings } from '../../../api/checks/page-checks.ts';
import { startMissingSiteRunner, type MissingSiteRunner } from '../support/missing-site-runner.ts';

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

let site: MissingSiteRunner;
let runner: BrowserRunner;
let origin: string;
let topic = 0;

beforeAll(async () => {
  site = await startMissingSiteRunner({ pages: 1 });
  ({ runner, origin } = site);
}, 120_000);

afterAll(async () => {
  await site?.close();
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

describe('a page that sends itself elsewhere', () => {
  const leaving = (script: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Topic</title></head><body>${DEFECTS}<script>${script}</script></body></html>`;

  it.each([
    ['after its load, by script', "addEventListener('load', () => location.replace('/content/enforced/1-A/elsewhere.html'));"],
    ['a moment after its load', "addEventListener('load', () => setTimeout(() => { location.href = 'https://elsewhere.example.org/'; }, 100));"],
  ])('is checked as it is when it navigates %s', async (_when, script) => {
    const url = new URL(`/content/enforced/1-A/topic-${++topic}.html`, origin);
    const outcome = await runner.run({ html: leaving(script), url, whole: true, title: 'Topic' });
    expect(outcome.errors).toEqual([]);
    const failed = outcome.violations.map((violation) => violation.id);
    expect(failed).toEqual(expect.arrayContaining(['image-alt', 'button-name']));
  }, 120_000);

  it('is checked as it is when a meta refresh sends it elsewhere at once', async () => {
    const url = new URL(`/content/enforced/1-A/topic-${++topic}.html`, origin);
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Topic</title><meta http-equiv="refresh" content="0; url=/content/enforced/1-A/next.html"></head><body>${DEFECTS}</body></html>`;
    const outcome = await runner.run({ html, url, whole: true, title: 'Topic' });
    expect(outcome.errors).toEqual([]);
    expect(outcome.violations.map((violation) => violation.id)).toEqual(expect.arrayContaining(['image-alt', 'button-name']));
  }, 120_000);
});
