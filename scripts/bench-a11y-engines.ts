// Measures candidate accessibility engines beside axe-core on the same pages, for the choice of a
// second engine (docs/accessibility-engines.md):
//   node scripts/bench-a11y-engines.ts --candidates DIR
// DIR is a folder where the candidates were installed from the npm registry (`npm install
// accessibility-checker-engine html_codesniffer @siteimprove/alfa-rules @siteimprove/alfa-act
// @siteimprove/alfa-playwright`); a candidate missing there is left out. The pages are the failure
// cases of test/fixtures/a11y-engines/cases.ts (W3C WCAG 2.2 failure techniques and ACT Rules, each
// with a passing look-alike) and the ACT corpus of scripts/act-corpus.ts. Each page is loaded into a
// fresh document of one headless Chromium page, each engine is injected and run on it, and its
// failures (not its "needs review") are counted, less the rules about the page around a topic that
// CTPO never runs. A pair is found when the failing page has a failure the look-alike has not; a
// look-alike with any failure is a false flag. It prints, per engine, what it found and flagged
// falsely, its time per page and the size of what it injects.
import { readFileSync, statSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { findChromium } from '../api/a11y/a11y-runner.ts';
import { AXE_SOURCE, axeRulesFor, axeRunOptions } from '../api/a11y/axe-rules.ts';
import { CHROMIUM_ARGS, fragmentPage } from '../api/a11y/browser-runner.ts';
import { IBM_OFF_RULES, IBM_POLICY } from '../api/a11y/ibm-rules.ts';
import { collectPageFacts } from '../api/a11y/page-checks/collect-page-facts.ts';
import { PageWorld } from '../api/a11y/page-world.ts';
import type { ItemPlace } from '../api/brightspace/places.ts';
import { pageCheckFindings } from '../api/checks/page-checks.ts';
import { ENGINE_CASES } from '../test/fixtures/a11y-engines/cases.ts';
import { ACT_CORPUS } from './act-corpus.ts';

interface Candidate {
  name: string;
  /** Bytes injected into each page (or, for an engine that runs outside the page, its installed size). */
  size: number;
  /** The failing rules on the page now in the browser page. */
  run: (page: Page) => Promise<string[]>;
}

// Rules about the page around a topic (its landmarks, skip links, the page's main heading): a topic
// is shown inside Brightspace's page, which has them. Turned off for every engine, as for axe.
const HTMLCS_PAGE_RULES = [/G1\./, /H25\./, /H57\./];
// Alfa also runs AAA rules (line height and font size of 1.4.8, enhanced contrast, enhanced
// target size), which CTPO does not judge: left out too, so that all judge A and AA.
const ALFA_PAGE_RULES = ['sia-r1', 'sia-r4', 'sia-r61', 'sia-r87', 'sia-r57', 'sia-r64', 'sia-r53', 'sia-r59', 'sia-r66', 'sia-r73', 'sia-r74', 'sia-r111'];

function folderSize(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    total += entry.isDirectory() ? folderSize(full) : statSync(full).size;
  }
  return total;
}

const sessions = new WeakMap<Page, CDPSession>();

async function candidates(dir: string | undefined): Promise<Candidate[]> {
  const wcagRules = axeRulesFor({ mode: 'browser', whole: true, enhancedContrast: false });
  const list: Candidate[] = [
    {
      name: `axe-core (CTPO's rules)`,
      size: AXE_SOURCE.length,
      run: async (page) => {
        await page.evaluate(AXE_SOURCE);
        return page.evaluate(async (options) => {
          const axe = (window as unknown as { axe: { run: (d: Document, o: unknown) => Promise<{ violations: { id: string }[] }> } }).axe;
          return (await axe.run(document, options)).violations.map((v) => v.id);
        }, axeRunOptions(wcagRules) as Record<string, unknown>);
      },
    },
  ];
  // CTPO's own page checks (api/a11y/page-checks/, api/checks/page-checks.ts), which run after
  // the engines on every topic: what a student would meet, judged from the rendered page.
  list.push({
    name: `CTPO's page checks`,
    size: 0,
    run: async (page) => {
      let devtools = sessions.get(page);
      if (devtools === undefined) sessions.set(page, (devtools = await page.context().newCDPSession(page)));
      // A world of its own for each page: every page is a new document.
      const facts = await collectPageFacts(page, devtools, new PageWorld(devtools, ''));
      const place = { itemType: 'topic', itemId: 0, topicId: 0, title: 'Topic' } as unknown as ItemPlace;
      return pageCheckFindings(facts, true, place, null).filter((finding) => finding.severity !== 'info').map((finding) => finding.check);
    },
  });
  // The second engine is a dependency of CTPO: measured from the project unless a folder is named.
  const require = createRequire(join(resolvePath(dir ?? '.'), 'package.json'));
  const resolve = (name: string) => {
    try {
      return require.resolve(name);
    } catch {
      return undefined;
    }
  };
  const ace = resolve('accessibility-checker-engine/ace.js');
  if (ace !== undefined) {
    const source = readFileSync(ace, 'utf8');
    list.push({
      name: 'IBM Equal Access (accessibility-checker-engine)',
      size: source.length,
      run: async (page) => {
        await page.evaluate(source);
        return page.evaluate(async ({ policy, off }) => {
          type Issue = { ruleId: string; value: [string, string] };
          const ace = (window as unknown as { ace: { Checker: new () => { check: (d: Document, g: string[]) => Promise<{ results: Issue[] }> } } }).ace;
          const report = await new ace.Checker().check(document, [policy]);
          return report.results.filter((r) => r.value[0] === 'VIOLATION' && r.value[1] === 'FAIL' && !off.includes(r.ruleId)).map((r) => r.ruleId);
        }, { policy: IBM_POLICY, off: Object.keys(IBM_OFF_RULES) });
      },
    });
  }
  const htmlcs = resolve('html_codesniffer/build/HTMLCS.js');
  if (htmlcs !== undefined) {
    const source = readFileSync(htmlcs, 'utf8');
    list.push({
      name: 'HTML_CodeSniffer (WCAG2AA)',
      size: source.length,
      run: async (page) => {
        await page.evaluate(source);
        const codes = await page.evaluate(() => new Promise<string[]>((done) => {
          type Message = { type: number; code: string };
          const HTMLCS = (window as unknown as { HTMLCS: { process: (s: string, d: Document, cb: () => void) => void; getMessages: () => Message[] } }).HTMLCS;
          HTMLCS.process('WCAG2AA', document, () => done(HTMLCS.getMessages().filter((m) => m.type === 1).map((m) => m.code)));
        }));
        return codes.filter((code) => !HTMLCS_PAGE_RULES.some((rule) => rule.test(code)));
      },
    });
  }
  const alfaRules = resolve('@siteimprove/alfa-rules');
  const alfaAct = resolve('@siteimprove/alfa-act');
  const alfaPlaywright = resolve('@siteimprove/alfa-playwright');
  if (alfaRules !== undefined && alfaAct !== undefined && alfaPlaywright !== undefined) {
    // Alfa is ESM and runs in Node on a copy of the page's DOM and styles, not in the page.
    type Outcome = { outcome: string; rule: { uri: string } };
    const rules = ((await import(pathToFileURL(alfaRules).href)) as { default: unknown }).default;
    const { Audit } = (await import(pathToFileURL(alfaAct).href)) as { Audit: { of: (page: unknown, rules: unknown) => { evaluate: () => Promise<Iterable<{ toJSON: () => Outcome }>> } } };
    const { Playwright } = (await import(pathToFileURL(alfaPlaywright).href)) as { Playwright: { toPage: (handle: unknown) => Promise<unknown> } };
    list.push({
      name: 'Siteimprove Alfa (alfa-rules)',
      size: folderSize(join(resolvePath(dir ?? '.'), 'node_modules/@siteimprove')),
      run: async (page) => {
        const handle = await page.evaluateHandle(() => window.document);
        const alfaPage = await Playwright.toPage(handle);
        const outcomes = await Audit.of(alfaPage, rules).evaluate();
        const failed: string[] = [];
        for (const outcome of outcomes) {
          const json = outcome.toJSON();
          const rule = json.rule.uri.split('/').pop() ?? json.rule.uri;
          if (json.outcome === 'failed' && !ALFA_PAGE_RULES.includes(rule)) failed.push(rule);
        }
        return failed;
      },
    });
  }
  return list;
}

interface PagePair {
  id: string;
  fail: string[];
  pass: string[];
}

const wrap = (html: string, whole: boolean | undefined) =>
  whole ? html : fragmentPage({ html, url: new URL('https://example.org/'), whole: false, title: 'Topic' }, 'en');

function pages(): PagePair[] {
  const pairs: PagePair[] = ENGINE_CASES.map((c) => ({ id: `${c.source} ${c.id}`, fail: [wrap(c.fail, c.whole)], pass: [wrap(c.pass, c.whole)] }));
  for (const rule of ACT_CORPUS) {
    pairs.push({ id: `ACT ${rule.act}`, fail: rule.failed.map((html) => wrap(html, rule.whole)), pass: rule.passed.map((html) => wrap(html, rule.whole)) });
  }
  return pairs;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--candidates');
  const dir = at === -1 ? undefined : process.argv[at + 1];
  const executablePath = findChromium();
  if (executablePath === undefined) throw new Error('needs Chromium (CTPO_CHROMIUM)');
  const engines = await candidates(dir);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.route('**/*', (route) => (route.request().isNavigationRequest() ? route.fulfill({ status: 200, body: '' }) : route.fulfill({ status: 404, body: '' })));
  const pairs = pages();
  const fixturePairs = ENGINE_CASES.length;
  console.log(`${fixturePairs} failure-technique pairs (test/fixtures/a11y-engines), ${pairs.length - fixturePairs} ACT rules with ${ACT_CORPUS.reduce((n, r) => n + r.failed.length, 0)} failing and ${ACT_CORPUS.reduce((n, r) => n + r.passed.length, 0)} passing cases (scripts/act-corpus.ts)`);
  const actFailing = ACT_CORPUS.reduce((n, r) => n + r.failed.length, 0);
  const actPassing = ACT_CORPUS.reduce((n, r) => n + r.passed.length, 0);
  /** Per engine, per pair: which failing pages it found and which look-alikes it flagged. */
  const verdicts = new Map<string, { found: boolean[]; flagged: boolean[] }[]>();
  const summarize = (name: string, size: string, per: { found: boolean[]; flagged: boolean[] }[], extra: string[]) => {
    const count = (from: number, to: number, key: 'found' | 'flagged') => per.slice(from, to).reduce((n, v) => n + v[key].filter(Boolean).length, 0);
    console.log(`\n${name}${size}`);
    console.log(`  failure techniques: found ${count(0, fixturePairs, 'found')} of ${fixturePairs}, false flags ${count(0, fixturePairs, 'flagged')} of ${fixturePairs}`);
    console.log(`  ACT corpus: found ${count(fixturePairs, pairs.length, 'found')} of ${actFailing}, false flags ${count(fixturePairs, pairs.length, 'flagged')} of ${actPassing}`);
    for (const line of extra) console.log(`  ${line}`);
  };
  for (const engine of engines) {
    let runs = 0;
    let runMs = 0;
    let threw = 0;
    const missed: string[] = [];
    const flagged: string[] = [];
    const per: { found: boolean[]; flagged: boolean[] }[] = [];
    const check = async (html: string) => {
      await page.goto('https://course.example.org/topic.html');
      await page.setContent(html);
      const started = performance.now();
      try {
        return await engine.run(page);
      } catch {
        threw++;
        return [];
      } finally {
        runMs += performance.now() - started;
        runs++;
      }
    };
    for (const [index, pair] of pairs.entries()) {
      const isFixture = index < fixturePairs;
      const passRules = new Set<string>();
      const verdict = { found: [] as boolean[], flagged: [] as boolean[] };
      for (const html of pair.pass) {
        const failed = await check(html);
        failed.forEach((rule) => passRules.add(rule));
        verdict.flagged.push(failed.length > 0);
        if (failed.length > 0) flagged.push(`${pair.id}: ${[...new Set(failed)].join(' ')}`);
      }
      for (const html of pair.fail) {
        const failed = await check(html);
        const found = isFixture ? failed.some((rule) => !passRules.has(rule)) : failed.length > 0;
        verdict.found.push(found);
        if (!found) missed.push(pair.id);
      }
      per.push(verdict);
    }
    verdicts.set(engine.name, per);
    summarize(engine.name, `: ${(engine.size / 1024).toFixed(0)} KB`, per, [
      `time per page (injection and run): ${(runMs / runs).toFixed(1)} ms over ${runs} pages${threw > 0 ? `; threw on ${threw}` : ''}`,
      `missed: ${[...new Set(missed)].join(', ') || 'none'}`,
      `false flags: ${flagged.join('; ') || 'none'}`,
    ]);
  }
  // What each candidate adds to axe-core: a case found by either, a look-alike flagged by either.
  const axe = verdicts.get(engines[0]!.name)!;
  for (const engine of engines.slice(1)) {
    const other = verdicts.get(engine.name)!;
    const union = axe.map((v, i) => ({ found: v.found.map((f, j) => f || other[i]!.found[j]!), flagged: v.flagged.map((f, j) => f || other[i]!.flagged[j]!) }));
    summarize(`axe-core and ${engine.name} together`, '', union, []);
  }
  // What a CTPO run reports: both engines and the page checks on every page.
  const ctpo = [...verdicts.entries()].filter(([name]) => name.startsWith('axe-core') || name.startsWith('IBM') || name.startsWith(`CTPO's`)).map(([, per]) => per);
  if (ctpo.length === 3) {
    const union = axe.map((v, i) => ({ found: v.found.map((_, j) => ctpo.some((per) => per[i]!.found[j]!)), flagged: v.flagged.map((_, j) => ctpo.some((per) => per[i]!.flagged[j]!)) }));
    summarize('What a CTPO run reports (axe-core, IBM Equal Access and the page checks)', '', union, []);
  }
  await browser.close();
}

await main();
