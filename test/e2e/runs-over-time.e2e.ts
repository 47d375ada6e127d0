// Runs over time as a QA user lives them, in Chromium against the local stack and the demo course:
// a first run, a defect fixed in the course and a finding dismissed in the app, 'Run again' with
// the same values, and a second report that says what was fixed and what was dismissed. The list
// of runs survives a reload and a new sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER } from '../../api/local/demo-course/demo-course.ts';
import type { TopicModel } from '../../api/local/demo-course/course-model.ts';
import { axeViolations, fillCourseForm, signIn, startE2eEnvironment, USER } from './support/e2e-environment.ts';
import type { AxeViolationSummary, E2eEnvironment } from './support/e2e-environment.ts';

let env: E2eEnvironment;
const accessibility: Record<string, AxeViolationSummary[]> = {};

beforeAll(async () => {
  env = await startE2eEnvironment('runs-over-time');
});

afterAll(async () => {
  await env?.close();
});

/** A topic of the demo course as the site serves it. */
function demoTopic(id: number): TopicModel & { kind: 'html' } {
  const visit = (modules: NonNullable<(typeof env.demo.site.courses)[number]['modules']>): TopicModel | undefined => {
    for (const module of modules) {
      const found = module.topics?.find((topic) => topic.id === id) ?? visit(module.modules ?? []);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const topic = visit(env.demo.site.courses[0]!.modules);
  if (topic?.kind !== 'html') throw new Error(`the demo course has no HTML topic ${id}`);
  return topic;
}

describe('a course tested twice', () => {
  it('shows the defect fixed in between and the finding dismissed in the app in the second report, and keeps the runs', async () => {
    const { page, shot } = env;
    await page.goto(`${env.stack.origin}/`);
    await signIn(page);
    await page.getByText(`Welcome, ${USER.email}`).waitFor();
    const runs = page.getByRole('region', { name: 'Recent runs' });
    await runs.getByText('No runs yet. The runs you start appear here, newest first.').waitFor();

    // The first run, without Unit 3.
    await fillCourseForm(page, { username: DEMO_USER, password: DEMO_PASSWORD, siteUrl: env.demo.origin, orgUnitId: String(DEMO_ORG_UNIT), client: 'Demo College' });
    await page.getByRole('button', { name: 'Choose Modules' }).click();
    const modules = page.getByRole('group', { name: 'Modules' });
    await modules.getByRole('checkbox', { name: 'Unit 3: Climate' }).uncheck();
    await page.getByRole('button', { name: 'Run CTPO' }).click();
    await page.getByText('QA job completed successfully.').waitFor({ timeout: 90_000 });
    const first = runs.getByRole('article').first();
    await first.getByText('Succeeded').waitFor();
    expect(await first.getByRole('heading').innerText()).toMatch(/^Demo College\s+Environmental Science 101 \(Org Unit ID 6606\)$/);
    await shot(page, 'first-run');

    // A builder fixes the broken reading-list link in the course.
    const readingList = demoTopic(2101);
    expect(readingList.html).toContain('/missing/energy-pyramids');
    readingList.html = readingList.html.replace('/missing/energy-pyramids', '/ok/energy-pyramids');

    // The QA user dismisses the placeholder text of the Unit 1 notes, with a reason.
    await first.getByRole('button', { name: 'Findings' }).click();
    const findings = page.getByRole('region', { name: /^Findings of Demo College/ });
    await findings.getByText(/findings shown\./).waitFor();
    await findings.getByLabel('Check').selectOption({ label: 'Placeholder text' });
    const placeholder = findings.getByRole('listitem').filter({ hasText: 'Unit 1 notes' });
    await placeholder.getByRole('button', { name: 'Dismiss' }).click();
    await placeholder.getByLabel('Why dismiss it? (optional)').fill('The writer replaces the sample text before launch.');
    accessibility['dismissing a finding'] = await axeViolations(page);
    await placeholder.getByRole('button', { name: 'Dismiss finding' }).click();
    await placeholder.getByText(`Dismissed by ${USER.email} on`).waitFor();
    await shot(page, 'dismissed');
    await findings.getByRole('button', { name: 'Close findings' }).click();

    // 'Run again' fills the form with the first run's values, never the password.
    await page.reload();
    await runs.getByRole('article').first().waitFor();
    await runs.getByRole('article').first().getByRole('button', { name: 'Run again' }).click();
    expect(await page.getByLabel('Client Site URL', { exact: true }).inputValue()).toBe(env.demo.origin);
    expect(await page.getByLabel('Org Unit ID', { exact: true }).inputValue()).toBe(String(DEMO_ORG_UNIT));
    expect(await page.getByLabel('Client', { exact: true }).inputValue()).toBe('Demo College');
    expect(await page.getByLabel('Brightspace Password', { exact: true }).inputValue()).toBe('');
    await page.getByText(/^Filled in from the run for Demo College of /).waitFor();
    accessibility['form filled again'] = await axeViolations(page);
    await shot(page, 'run-again');
    await page.getByLabel('Brightspace Username', { exact: true }).fill(DEMO_USER);
    await page.getByLabel('Brightspace Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Choose Modules' }).click();
    await modules.getByText('6 of 7 modules selected, 20 topics').waitFor();
    expect(await modules.getByRole('checkbox', { name: 'Unit 3: Climate' }).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Run CTPO' }).click();
    await page.getByText('QA job completed successfully.').waitFor({ timeout: 90_000 });

    // Both runs are listed, newest first; the first one's report is still there.
    await runs.getByRole('article').nth(1).waitFor();
    const [second, earlier] = [runs.getByRole('article').nth(0), runs.getByRole('article').nth(1)];
    await second.getByText(/^Since the last run: 0 new, \d+ still open, 1 fixed, 1 dismissed\.$/).waitFor();
    expect(await earlier.getByRole('link', { name: /View report/ }).count()).toBe(1);
    accessibility['two runs listed'] = await axeViolations(page);
    await shot(page, 'second-run');

    const [reportPage] = await Promise.all([env.context.waitForEvent('page'), second.getByRole('link', { name: /View report/ }).click()]);
    await reportPage.waitForLoadState();
    const fixed = reportPage.locator('section', { has: reportPage.locator('#history-title') });
    // Course text and names are isolated for right-to-left pages (FSI … PDI); read without the marks.
    const plain = (text: string) => text.replace(/[\u2068\u2069]/g, '');
    const fixedText = plain(await fixed.innerText());
    expect(fixedText).toMatch(/Fixed since the last run \(1\)[\s\S]*Broken link[\s\S]*\/missing\/energy-pyramids/);
    expect(fixedText).toContain('New since the last run (0)');
    const dismissedText = plain(await reportPage.locator('section', { has: reportPage.locator('#dismissed-title') }).innerText());
    expect(dismissedText).toMatch(/Dismissed \(1\)[\s\S]*Placeholder text[\s\S]*Unit 1 notes/);
    expect(dismissedText).toContain(`Dismissed by ${USER.email} on`);
    expect(dismissedText).toContain('Reason: The writer replaces the sample text before launch.');
    await shot(reportPage, 'second-report');
    await reportPage.close();

    // The list comes from the API: it survives a sign-out and a new sign-in.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(page);
    await page.getByText(`Welcome, ${USER.email}`).waitFor();
    await runs.getByRole('article').nth(1).waitFor();
    expect(await runs.getByRole('article').count()).toBe(2);
    await shot(page, 'signed-in-again');
  });

  it('meets WCAG 2.x A and AA, colour contrast included, in the new states', () => {
    expect(Object.keys(accessibility)).toEqual(['dismissing a finding', 'form filled again', 'two runs listed']);
    for (const [state, violations] of Object.entries(accessibility)) {
      expect(violations, `${state}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
    }
  });
});
