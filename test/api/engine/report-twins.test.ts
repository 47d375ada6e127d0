// The reports of fixed courses, byte for byte: the demo course (its modules, then the whole course
// compared with that first run) and the whole-course fixture, each written as its HTML, JSON and CSV
// twins and compared with the files under test/fixtures/report-twins/. The servers have names of
// their own (resolved to loopback by the run's resolver), so reports sort the same whatever ports
// they listen on. Times, ports and the fingerprints made from addresses with ports in them are the
// only parts that change from run to run: times are set to fixed values, ports taken out, and each
// fingerprint named by the order in which it first appears (two findings that share one still
// share its name, across the reports of a test, as a comparison needs). A change to the engine that changes a report shows here, line by line; a change meant
// to change reports writes them again with CTPO_UPDATE_TWINS=1 and shows the difference in review.
//
// Accessibility is checked without a browser here (jsdom), so the twins do not depend on the
// version of Chromium the machine has; the browser's own verdicts are tested where they are made.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSE_SCOPES } from '../../../api/brightspace/course-scopes.ts';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER, demoSite } from '../../../api/local/demo-course/demo-course.ts';
import { startLinkHost, type LinkHost } from '../../../api/local/demo-course/link-host.ts';
import { systemResolver, type Resolver } from '../../../api/net/address-guard.ts';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { CourseTestInput } from '../../../api/engine/types.ts';
import { compareWithHistory } from '../../../api/report/compare.ts';
import type { Report } from '../../../api/report/model.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { WHOLE_NOW, wholeCourseInput, wholeCourseSite } from '../../fixtures/whole-course.ts';

const TWINS = new URL('../../fixtures/report-twins/', import.meta.url);
const UPDATE = process.env.CTPO_UPDATE_TWINS === '1';
const DEMO_NOW = new Date('2026-09-14T15:00:00Z');
const STARTED = '2026-09-14T15:00:00.000Z';
const FINISHED = '2026-09-14T15:01:00.000Z';

let web: LinkHost;
let demo: BrightspaceSite;
let whole: BrightspaceSite;
/** The servers' origins by name, with the ports they listen on, and as the twins write them. */
let origins: [string, string][];
const fingerprints = new Map<string, string>();

/** Every *.example name is this machine; nothing else is asked for by these courses. */
const resolve: Resolver = async (host) => (host.endsWith('.example') ? [{ address: '127.0.0.1', family: 4 }] : systemResolver(host));
const named = (origin: string, name: string) => origin.replace('127.0.0.1', name);

beforeAll(async () => {
  web = await startLinkHost();
  const webOrigin = named(web.origin, 'web.example');
  // An origin nothing listens on: the demo's unreachable links, the same address every run.
  demo = await startBrightspaceSite(demoSite(webOrigin, 'http://127.0.0.1:9', DEMO_NOW));
  whole = await startBrightspaceSite(wholeCourseSite(webOrigin));
  origins = [
    [webOrigin, 'http://web.example'],
    [named(demo.origin, 'demo.example'), 'http://demo.example'],
    [named(whole.origin, 'whole.example'), 'http://whole.example'],
  ];
});

afterAll(async () => {
  await Promise.all([web?.close(), demo?.close(), whole?.close()]);
});

function demoInput(overrides: Partial<CourseTestInput> = {}): CourseTestInput {
  return {
    siteUrl: origins[1]![0],
    username: DEMO_USER,
    password: DEMO_PASSWORD,
    orgUnitId: DEMO_ORG_UNIT,
    modules: 'all',
    client: 'Demo College',
    allowPrivateTargets: true,
    options: { now: DEMO_NOW, chromium: null, resolve },
    ...overrides,
  };
}

/** The report with its times fixed, the servers' ports taken out and its fingerprints named. */
function fixed(report: Report): Report {
  let text = JSON.stringify({ ...report, startedAt: STARTED, finishedAt: FINISHED });
  for (const [origin, name] of origins) text = text.replaceAll(origin, name);
  text = text.replace(/"fingerprint":"([0-9a-f]{20})"/g, (_whole, fingerprint: string) => {
    if (!fingerprints.has(fingerprint)) fingerprints.set(fingerprint, `fp-${String(fingerprints.size + 1).padStart(17, '0')}`);
    return `"fingerprint":"${fingerprints.get(fingerprint)}"`;
  });
  return JSON.parse(text) as Report;
}

/** Compares the three twins of a report with those kept under `name`, or writes them when updating. */
function expectTwins(name: string, report: Report): void {
  const twins = { json: renderJsonReport(report), html: renderHtmlReport(report), csv: renderCsvReport(report) };
  if (UPDATE) mkdirSync(TWINS, { recursive: true });
  for (const [extension, text] of Object.entries(twins)) {
    const file = new URL(`${name}.${extension}`, TWINS);
    if (UPDATE || !existsSync(file)) writeFileSync(file, text);
    expect(text, `${name}.${extension}`).toBe(readFileSync(file, 'utf8'));
  }
}

describe('reports of fixed courses, byte for byte', () => {
  it('the demo course: its modules, then the whole course compared with that run', async () => {
    const modules = fixed(await runCourseTest(demoInput()));
    expectTwins('demo-modules', modules);
    const everything = fixed(await runCourseTest(demoInput({ scopes: [...COURSE_SCOPES] })));
    const previous = { filename: 'demo-college-6606-first', report: JSON.parse(renderJsonReport(modules)) as unknown };
    const dismissed = everything.findings.find((finding) => finding.check === 'content.placeholder')!;
    expectTwins('demo-whole-compared', compareWithHistory(everything, {
      previous,
      dismissals: [{ fingerprint: dismissed.fingerprint, by: 'qa@example.com', at: FINISHED, reason: 'Placeholder kept on purpose' }],
    }));
  });

  it('the whole-course fixture, every scope', async () => {
    const input = wholeCourseInput(origins[2]![0]);
    const report = fixed(await runCourseTest({ ...input, options: { ...input.options, linkTimeoutMs: 15_000, now: WHOLE_NOW, chromium: null, resolve } }));
    expectTwins('whole-course', report);
  });
});
