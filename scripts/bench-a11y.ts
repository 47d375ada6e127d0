// Recall and false flags of CTPO's accessibility checks against plain axe-core in Chromium:
//   npm run bench:a11y
// The corpus (scripts/act-corpus.ts, cases written after the W3C ACT Rules' examples) is served as a
// Brightspace course on the test site, one module per ACT rule and one HTML topic per case. CTPO runs
// on it as a course test, once in its browser mode and once without a browser (jsdom); the reference
// is axe-core with its defaults in headless Chromium, on the same pages from the same site. A failed
// case is found when one of the axe rules mapped to its ACT rule fails on its page (a "needs review"
// does not count); a passed case flagged that way is a false flag. AAA enhanced contrast is on for
// all three, so its cases count.
import { chromium } from 'playwright-core';
import { findChromium } from '../api/a11y/a11y-runner.ts';
import { AXE_SOURCE } from '../api/a11y/axe-rules.ts';
import { CHROMIUM_ARGS } from '../api/a11y/browser-runner.ts';
import { runCourseTest } from '../api/engine/run-course-test.ts';
import { startBrightspaceSite } from '../api/local/demo-course/brightspace-site.ts';
import { type ModuleModel } from '../api/local/demo-course/course-model.ts';
import type { Report } from '../api/report/model.ts';
import { ACT_CORPUS } from './act-corpus.ts';

const ORG_UNIT = 5150;
const CODE = 'ACT';
const USER = 'act.bench';
const PASSWORD = 'act-bench-password-not-secret';

interface Case {
  topicId: number;
  act: string;
  axe: string[];
  expected: 'failed' | 'passed';
  path: string;
}

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Case</title></head><body>${body}</body></html>`;

const cases: Case[] = [];
const modules: ModuleModel[] = ACT_CORPUS.map((rule, index) => ({
  id: 1000 + index,
  title: `${rule.act}: ${rule.name}`,
  topics: [...rule.failed.map((html) => ['failed', html] as const), ...rule.passed.map((html) => ['passed', html] as const)].map(([expected, html], n) => {
    const topicId = 100_000 + index * 100 + n;
    const fileName = `${rule.act}/${expected}-${n}.html`;
    cases.push({ topicId, act: rule.act, axe: rule.axe, expected, path: `/content/enforced/${ORG_UNIT}-${CODE}/${fileName}` });
    return { id: topicId, title: `${rule.act} ${expected} ${n}`, kind: 'html' as const, fileName, html: rule.whole ? html : page(html) };
  }),
}));

const site = await startBrightspaceSite({
  login: 'form',
  users: [{ username: USER, password: PASSWORD }],
  courses: [{ orgUnitId: ORG_UNIT, name: 'ACT corpus', code: CODE, modules }],
});

type Verdicts = Map<number, Set<string>>;

async function ctpo(chromiumPath: string | null): Promise<{ verdicts: Verdicts; report: Report }> {
  const report = await runCourseTest({
    siteUrl: site.origin,
    username: USER,
    password: PASSWORD,
    orgUnitId: ORG_UNIT,
    modules: 'all',
    client: 'ACT bench',
    allowPrivateTargets: true,
    options: { chromium: chromiumPath, enhancedContrast: true },
  });
  const verdicts: Verdicts = new Map();
  for (const finding of report.findings) {
    if (!finding.check.startsWith('a11y.') || finding.review === true || finding.topicId === null) continue;
    const rules = verdicts.get(finding.topicId) ?? new Set();
    rules.add(finding.check.slice('a11y.'.length));
    verdicts.set(finding.topicId, rules);
  }
  return { verdicts, report };
}

async function reference(executablePath: string): Promise<Verdicts> {
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS.filter((arg) => !arg.startsWith('--host-resolver-rules')) });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { cookie: site.openSession(USER) } });
  const tab = await context.newPage();
  const verdicts: Verdicts = new Map();
  for (const item of cases) {
    await tab.goto(new URL(item.path, site.origin).href, { waitUntil: 'load' });
    await tab.evaluate(AXE_SOURCE);
    const failed = await tab.evaluate(() =>
      (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string }[] }> } }).axe
        .run(document, { rules: { 'color-contrast-enhanced': { enabled: true } } })
        .then((results) => results.violations.map((violation) => violation.id)),
    );
    verdicts.set(item.topicId, new Set(failed));
  }
  await browser.close();
  return verdicts;
}

interface Score {
  found: number;
  failed: number;
  flagged: number;
  passed: number;
}

function score(verdicts: Verdicts, filter: (item: Case) => boolean = () => true): Score {
  const result: Score = { found: 0, failed: 0, flagged: 0, passed: 0 };
  for (const item of cases.filter(filter)) {
    const hit = item.axe.some((rule) => verdicts.get(item.topicId)?.has(rule) === true);
    if (item.expected === 'failed') {
      result.failed++;
      if (hit) result.found++;
    } else {
      result.passed++;
      if (hit) result.flagged++;
    }
  }
  return result;
}

const percent = (score: Score) => `${((score.found / score.failed) * 100).toFixed(1)}%`;
const line = (name: string, s: Score) => `${name.padEnd(34)} recall ${String(s.found).padStart(3)}/${s.failed} (${percent(s).padStart(6)}), false flags ${s.flagged}/${s.passed}`;

const executable = findChromium();
if (executable === undefined) {
  console.error('bench:a11y needs Chromium (Debian\'s chromium, or CTPO_CHROMIUM).');
  process.exitCode = 1;
} else {
  try {
    const failedCount = cases.filter((item) => item.expected === 'failed').length;
    console.log(`corpus: ${ACT_CORPUS.length} ACT rules, ${cases.length} cases (${failedCount} failed, ${cases.length - failedCount} passed), served as a Brightspace course`);
    const browserRun = await ctpo(executable);
    const jsdomRun = await ctpo(null);
    const axeRef = await reference(executable);
    console.log('\nper ACT rule: found failed cases (false flags) for CTPO in Chromium | CTPO without a browser | axe-core in Chromium');
    for (const rule of ACT_CORPUS) {
      const only = (item: Case) => item.act === rule.act;
      const [a, b, c] = [score(browserRun.verdicts, only), score(jsdomRun.verdicts, only), score(axeRef, only)];
      console.log(`  ${rule.act} ${rule.name.slice(0, 60).padEnd(60)} ${a.found}/${a.failed} (${a.flagged}) | ${b.found}/${b.failed} (${b.flagged}) | ${c.found}/${c.failed} (${c.flagged})`);
    }
    console.log('');
    console.log(line('CTPO, headless Chromium', score(browserRun.verdicts)));
    console.log(line('CTPO without a browser (jsdom)', score(jsdomRun.verdicts)));
    console.log(line('axe-core in Chromium (reference)', score(axeRef)));
    const errors = browserRun.report.accessibility?.ruleErrors ?? [];
    console.log(`rules that failed to run in CTPO's browser mode: ${errors.length === 0 ? 'none' : errors.map((e) => `${e.rule} (${e.items})`).join(', ')}`);
    console.log(`CTPO topics not scanned: ${browserRun.report.notScanned.length} in Chromium, ${jsdomRun.report.notScanned.length} without a browser`);
    const gap = ((score(axeRef).found - score(browserRun.verdicts).found) / score(axeRef).failed) * 100;
    console.log(`recall gap to the reference: ${gap.toFixed(1)} points`);
  } finally {
    await site.close();
  }
}
