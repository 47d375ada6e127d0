// The two accessibility engines in headless Chromium (axe-core and IBM's Equal Access engine): the
// failure-technique fixtures, each failing case found and its passing look-alike left alone; one
// finding where both engines fail the same element; an embedded document judged as the browser
// sees it (a missing file is missing, a stand-in never counted); and an engine that throws or hangs
// on a page. Needs Chromium (Debian's chromium, or CTPO_CHROMIUM), as CI installs it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../../api/a11y/a11y-runner.ts';
import { BrowserRunner } from '../../../api/a11y/browser-runner.ts';
import { PageResources } from '../../../api/a11y/page-resources.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { engineFindings } from '../../../api/checks/engine-findings.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';
import { accessibilityOfReport } from '../../../api/report/accessibility-summary.ts';
import { ENGINE_CASES } from '../../fixtures/a11y-engines/cases.ts';

const CHROMIUM = findChromium();
const place = topicPlace({ ModuleId: 1, Title: 'Unit 1' }, { TopicId: 2, Title: 'Reading' });

/**
 * Failing cases neither engine finds (docs/accessibility-engines.md): alt text that is only the
 * word "image" or a spacer's name, a placeholder used as the only label and a paragraph styled as a
 * heading are judgements of meaning no engine makes.
 */
const NOT_FOUND = ['img-alt-placeholder', 'decorative-alt-text', 'placeholder-only-label', 'styled-heading'];
/** Found, but as a note: axe files an empty heading under best practices, with a minor impact. */
const NOTED = ['heading-empty'];

let server: Server;
let origin: string;
let http: GuardedHttpClient;
let resources: PageResources;
let runner: BrowserRunner;
let topic = 0;

const at = () => new URL(`/content/enforced/1-A/topic-${++topic}.html`, origin);
const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Topic</title></head><body>${body}</body></html>`;
/** The checks counted against a page (errors and warnings) that both engines' verdicts make. */
async function counted(html: string, whole: boolean, on = runner): Promise<string[]> {
  const outcome = await on.run({ html, url: at(), whole, title: 'Topic' });
  return engineFindings(outcome, place, null).filter((found) => found.severity !== 'info').map((found) => found.check).sort();
}

beforeAll(async () => {
  if (CHROMIUM === undefined) {
    throw new Error('These tests need Chromium: install Debian\'s "chromium" package, or set CTPO_CHROMIUM to a Chromium binary.');
  }
  server = createServer((request, response) => {
    if (request.url === '/content/enforced/1-A/handout.html') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Handout</title><p>Week 1 handout</p>');
      return;
    }
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true }, timeoutMs: 5_000 });
  resources = new PageResources({ http, siteOrigin: new URL(origin), orgUnitId: 1, sessionHeaders: () => ({}) });
  runner = new BrowserRunner({ executablePath: CHROMIUM, resources, enhancedContrast: false, timeoutMs: 100_000 });
}, 120_000);

afterAll(async () => {
  await runner?.close();
  await http?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the failure-technique fixtures', () => {
  it.each(ENGINE_CASES.map((entry) => [`${entry.source} ${entry.id}`, entry] as const))('%s: the look-alike passes, the failure is found', async (_, entry) => {
    const passing = await counted(entry.pass, entry.whole === true);
    expect(passing).toEqual([]);
    const failing = await counted(entry.fail, entry.whole === true);
    if (NOT_FOUND.includes(entry.id) || NOTED.includes(entry.id)) expect(failing).toEqual([]);
    else expect(failing.length).toBeGreaterThan(0);
  }, 120_000);

  it('leaves an image button alone whose alt text is its label, as its image shows it', async () => {
    expect(await counted(page('<form><input type="image" src="submit.png" alt="Submit"></form>'), true)).toEqual([]);
  }, 120_000);
});

describe('one finding where both engines meet', () => {
  it('names both engines on an image without alt text, and leaves IBM no finding of its own for it', async () => {
    const outcome = await runner.run({ html: page('<p><img src="chart.png" width="40" height="40"> Enrolment</p>'), url: at(), whole: true });
    expect(outcome.ibm?.map((result) => result.id)).toContain('img_alt_valid');
    const findings = engineFindings(outcome, place, null);
    expect(findings.map((found) => found.check)).toEqual(['a11y.image-alt']);
    expect(formatMessage(findings[0]!.message)).toBe('Images must have alternative text (1 element). Found by axe-core and IBM Equal Access.');
  }, 120_000);

  it('keeps what only IBM finds as a11y.ibm.<rule>, with its element and a selector for it', async () => {
    const outcome = await runner.run({ html: page('<table><tr><td><b>Week</b></td><td><b>Topic</b></td></tr><tr><td>1</td><td>Water</td></tr><tr><td>2</td><td>Soil</td></tr></table>'), url: at(), whole: true });
    const own = engineFindings(outcome, place, null).filter((found) => found.check.startsWith('a11y.ibm.'));
    expect(own.map((found) => found.check)).toEqual(['a11y.ibm.table_headers_exists']);
    expect(own[0]!.selector).toBe('body > table');
    expect(own[0]!.element).toMatch(/^<table>/);
  }, 120_000);
});

describe('an embedded document as the browser sees it', () => {
  // An object shows its fallback content when its data is missing: axe then judges the fallback (the
  // object is not loaded), and the object's missing name only when its data loads and hides it.
  const object = (data: string) => page(`<object data="${data}" width="300" height="100">Handout for week 1</object>`);

  it('judges an <object> whose data is missing as missing, and one whose data loads as loaded', async () => {
    const missing = await runner.run({ html: object('missing.html'), url: at(), whole: true });
    expect(missing.violations.map((result) => result.id)).not.toContain('object-alt');
    const loaded = await runner.run({ html: object('handout.html'), url: at(), whole: true });
    expect(loaded.violations.map((result) => result.id)).toContain('object-alt');
  }, 120_000);

  it('never counts a verdict about a stand-in: an object whose address the guard refuses', async () => {
    const before = resources.standIns;
    const outcome = await runner.run({ html: object('http://169.254.169.254/latest/handout.html'), url: at(), whole: true });
    expect(resources.standIns).toBe(before + 1);
    expect(outcome.violations.map((result) => result.id)).not.toContain('object-alt');
    expect(outcome.ibm?.map((result) => result.id)).not.toContain('object_text_exists');
  }, 120_000);
});

describe('an engine that fails on a page', () => {
  const broken = (ibm: string, timeoutMs = 100_000) => new BrowserRunner({ executablePath: CHROMIUM!, resources, enhancedContrast: false, ibm, timeoutMs, pages: 1 });
  // Stand-ins for IBM's engine, shaped as runIbmInPage uses it, whose check throws or never answers.
  const fakeIbm = (check: string) =>
    `window.ace = { Checker: class { constructor() { this.engine = { getRule() { return undefined; }, getHelp() { return ''; } }; } getGuidelines() { return [{ id: 'WCAG_2_2', checkpoints: [] }]; } addGuideline() {} check() { ${check} } } };`;
  const throwingIbm = fakeIbm('throw new Error("IBM broke");');
  const image = page('<p><img src="chart.png" width="40" height="40"> Enrolment</p>');

  it('names IBM when it throws, and axe\'s verdicts on the page stand', async () => {
    const runnerWithBrokenIbm = broken(throwingIbm);
    try {
      const outcome = await runnerWithBrokenIbm.run({ html: image, url: at(), whole: true });
      expect(outcome.engineErrors).toEqual(['IBM Equal Access']);
      expect(outcome.ibm).toBeUndefined();
      expect(outcome.violations.map((result) => result.id)).toContain('image-alt');
    } finally {
      await runnerWithBrokenIbm.close();
    }
  }, 120_000);

  it('names axe when it throws, and IBM\'s verdicts on the page stand', async () => {
    const { ibmSource } = await import('../../../api/a11y/ibm-rules.ts');
    const runnerWithBrokenAxe = broken(`window.axe.run = () => Promise.reject(new Error("axe broke"));${ibmSource()}`);
    try {
      const outcome = await runnerWithBrokenAxe.run({ html: image, url: at(), whole: true });
      expect(outcome.engineErrors).toEqual(['axe-core']);
      expect(outcome.violations).toEqual([]);
      expect(outcome.ibm?.map((result) => result.id)).toContain('img_alt_valid');
      expect(engineFindings(outcome, place, null).map((found) => found.check)).toEqual(['a11y.ibm.img_alt_valid']);
    } finally {
      await runnerWithBrokenAxe.close();
    }
  }, 120_000);

  it('leaves the page not scanned only when both engines throw', async () => {
    const runnerWithBoth = broken(`window.axe.run = () => Promise.reject(new Error("axe broke"));${throwingIbm}`);
    try {
      await expect(runnerWithBoth.run({ html: image, url: at(), whole: true })).rejects.toThrow(/axe broke/);
    } finally {
      await runnerWithBoth.close();
    }
  }, 120_000);

  it('stops a page that hangs an engine at the per-topic limit', async () => {
    const hanging = broken(fakeIbm('return new Promise(() => {});'), 20_000);
    try {
      await expect(hanging.run({ html: image, url: at(), whole: true })).rejects.toThrow('Accessibility checks did not finish within 20 s.');
    } finally {
      await hanging.close();
    }
  }, 120_000);

  it('says in the report which engine failed, and on how many topics', () => {
    const summary = accessibilityOfReport(
      { mode: 'browser', axeVersion: '4.14.1', browserVersion: '140', enhancedContrast: false, notRun: [], ruleErrors: new Map(), secondEngine: { name: 'IBM Equal Access', version: '4.0.34' }, engineErrors: new Map([['IBM Equal Access', 2]]) },
      'en',
    );
    expect(summary.engineErrors).toEqual([{ engine: 'IBM Equal Access', items: 2 }]);
    expect(summary.ruleErrorNotes).toEqual(["IBM Equal Access failed on 2 topics; the other engine's verdicts there still stand: check them by hand for what IBM Equal Access checks."]);
    expect(summary.summary).toMatch(/IBM Equal Access 4\.0\.34 checked the same pages beside axe-core/);
  });
});
