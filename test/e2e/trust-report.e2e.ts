// A result a QA person can trust, in Chromium against the local stack and the demo course: a
// whole-course run (modules and course-wide items) whose report lists a repeated document link with
// each document's own link text and page or slide, then a one-module run that calls nothing fixed it
// did not read and says what it compared. The README's demo sentence is held to the real run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER } from '../../api/local/demo-course/demo-course.ts';
import type { Report } from '../../api/report/model.ts';
import { fillCourseForm, signIn, startE2eEnvironment, USER } from './support/e2e-environment.ts';
import type { E2eEnvironment } from './support/e2e-environment.ts';

let env: E2eEnvironment;

beforeAll(async () => {
  env = await startE2eEnvironment('trust-report');
});

afterAll(async () => {
  await env?.close();
});

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function reportJson(filename: string): Report {
  return JSON.parse(readFileSync(join(env.dataDir, 'reports', `${filename}.json`), 'utf8')) as Report;
}

/** The newest run's report, opened from Recent runs, and its file name. */
async function newestReport(page: Page): Promise<{ report: Page; filename: string }> {
  const newest = page.getByRole('region', { name: 'Recent runs' }).getByRole('article').first();
  const link = newest.getByRole('link', { name: /View report/ });
  const filename = new URL((await link.getAttribute('href'))!, env.stack.origin).pathname.split('/').pop()!.replace(/\.html$/, '');
  const [report] = await Promise.all([env.context.waitForEvent('page'), link.click()]);
  await report.waitForLoadState();
  return { report, filename };
}

async function startRun(page: Page, choose: (page: Page) => Promise<void>): Promise<void> {
  await page.getByText(`Welcome, ${USER.email}`).waitFor();
  await fillCourseForm(page, { username: DEMO_USER, password: DEMO_PASSWORD, siteUrl: env.demo.origin, orgUnitId: String(DEMO_ORG_UNIT), client: 'Demo College' });
  await page.getByRole('button', { name: 'Choose Modules' }).click();
  await page.getByRole('group', { name: 'Modules' }).waitFor();
  await choose(page);
  await page.getByRole('button', { name: 'Run CTPO' }).click();
  await page.getByText('QA job completed successfully.').waitFor({ timeout: 110_000 });
}

describe('a whole-course run, then a one-module run', () => {
  let whole: { filename: string; json: Report };

  it('lists a repeated document link with each document’s link text and page or slide, and the README tells its summary', async () => {
    const { page, shot } = env;
    await page.goto(`${env.stack.origin}/`);
    await signIn(page);
    // Everything the picker offers by default: every module and every course-wide item.
    await startRun(page, async () => undefined);
    const { report, filename } = await newestReport(page);
    whole = { filename, json: reportJson(filename) };

    const repeated = await report.locator('#repeated').innerText();
    expect(repeated).toContain('Final project › Rubric (PDF): link “Marking guide” on page 1 of the PDF “rubric.pdf”');
    expect(repeated).toContain('1.1 Readings › Reading list: link “the sampling sheet” on slide 2 of the PowerPoint file “week2-slides.pptx”');
    expect(repeated).toContain('Unit 2: Water › Lab handout (Word): link “sampling sheet” in the Word file “lab-handout.docx”');
    expect(repeated).toContain('How to fix: In the document the PDF was made from');
    // Each place keeps its own Where and points to the group.
    const inPlace = await report.locator('#topic-5002').innerText();
    expect(inPlace).toContain('link “Marking guide” on page 1 of the PDF “rubric.pdf”');
    expect(inPlace).toContain('see Repeated problems');
    // Copied out of the report, text carries no invisible isolate characters.
    expect(await report.locator('body').innerText()).not.toMatch(/[\u2066-\u2069]/);
    await shot(report, 'whole-report');

    // The README's demo sentence is this run's summary, as the monitor and the report say it.
    const promised = /its one-line summary \("([^"]+)"\)/.exec(README)?.[1];
    expect(promised, 'the README quotes the demo run’s summary').toBeDefined();
    expect(await report.locator('#summary .lead span').first().innerText()).toBe(promised);
    await report.close();
  });

  it('calls no course-wide finding fixed in a one-module run, gives every finding a status and says what it compared', async () => {
    const { page, shot } = env;
    await page.reload();
    await startRun(page, async () => {
      const modules = page.getByRole('group', { name: 'Modules' });
      for (const name of ['Start here', 'Unit 1: Ecosystems', 'Unit 3: Climate', 'Final project']) await modules.getByRole('checkbox', { name }).uncheck();
      const scopes = page.getByRole('group', { name: 'Course-wide items' });
      for (const box of await scopes.getByRole('checkbox').all()) await box.uncheck();
      await shot(page, 'one-module-chosen');
    });
    const runs = page.getByRole('region', { name: 'Recent runs' });
    await runs.getByRole('article').nth(1).waitFor();
    // Recent runs say how many are still open, and what the comparison covered.
    await runs.getByRole('article').first().getByText(/^Since the last run: 0 new, \d+ still open, 0 fixed, 0 dismissed\.$/).waitFor();
    await runs.getByRole('article').first().getByText('Compared on Unit 2: Water only.').waitFor();
    await shot(page, 'two-runs');

    const { report, filename } = await newestReport(page);
    const json = reportJson(filename);
    // The whole run found course-wide problems (the gradebook's weights, the overview's placeholder)...
    expect(whole.json.findings.some((finding) => finding.scope === 'gradebook')).toBe(true);
    expect(whole.json.findings.some((finding) => finding.scope === 'overview')).toBe(true);
    // ... which this run did not read: nothing is fixed, and every finding is new or still open.
    expect(json.comparison?.fixed).toEqual([]);
    expect(json.findings.every((finding) => finding.status === 'new' || finding.status === 'open')).toBe(true);
    expect(json.totals.comparison).toMatchObject({ new: 0, fixed: 0 });
    expect(json.totals.comparison!.new + json.totals.comparison!.open).toBe(json.findings.length);
    expect(json.comparison?.compared.map((entry) => entry.place)).toEqual([{ module: expect.any(Number), title: 'Unit 2: Water' }]);
    expect(json.comparison?.previous?.read).toEqual(expect.arrayContaining([{ scope: 'gradebook' }, { scope: 'overview' }]));

    const history = await report.locator('#history').innerText();
    expect(history).toContain('Compared on Unit 2: Water only.');
    expect(history).toMatch(/Compared with your run of .+ UTC, which read Start here, Unit 1: Ecosystems, Unit 2: Water, .+Gradebook\./);
    expect(history).not.toContain(whole.filename);
    expect(history).toContain(`0 findings are new, 0 were fixed and ${json.findings.length} are still open.`);
    expect(history).toContain('Fixed since the last run (0)');
    expect(history).not.toContain('Weights do not add up to 100');
    await shot(report, 'one-module-report');
    await report.close();
  });
});
