// The course testing protocol as a QA user lives it, in Chromium against the local stack and the
// demo course: a protocol made in the app for the client, a run scored by it, sign-off refused while
// an item needs a person, the manual item answered, the next run's report showing the answer, and
// that run marked ready for launch, in the app and in its report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER } from '../../api/local/demo-course/demo-course.ts';
import { axeViolations, fillCourseForm, signIn, startE2eEnvironment, USER } from './support/e2e-environment.ts';
import type { AxeViolationSummary, E2eEnvironment } from './support/e2e-environment.ts';

let env: E2eEnvironment;
const accessibility: Record<string, AxeViolationSummary[]> = {};

beforeAll(async () => {
  env = await startE2eEnvironment('protocol');
});

afterAll(async () => {
  await env?.close();
});

describe('a client’s protocol', () => {
  it('scores the runs, takes a person’s answer into the next report and marks the run ready for launch', async () => {
    const { page, shot } = env;
    await page.goto(`${env.stack.origin}/`);
    await signIn(page);
    await page.getByText(`Welcome, ${USER.email}`).waitFor();

    // A protocol made in the app: CTPO's default cut down to two items.
    await page.getByRole('button', { name: 'Protocols' }).click();
    const view = page.getByRole('region', { name: 'Course testing protocols' });
    await view.getByLabel('Name', { exact: true }).waitFor();
    await view.getByLabel('Client label, as runs are started with').fill('Demo College');
    await view.getByLabel('Name', { exact: true }).fill('Demo College launch checklist');
    await view.getByLabel('Version', { exact: true }).fill('3');
    while ((await view.getByRole('button', { name: /^Remove item \d+$/ }).count()) > 0) await view.getByRole('button', { name: 'Remove item 1', exact: true }).click();
    await view.getByRole('button', { name: 'Add an item' }).click();
    const links = view.getByRole('group', { name: 'Item 1' });
    await links.getByLabel('Title', { exact: true }).fill('Every link works');
    await links.getByLabel('Id', { exact: true }).fill('links-work');
    await links.getByLabel('Weight', { exact: true }).fill('3');
    await links.getByLabel('Add a check', { exact: true }).selectOption({ label: 'Broken link' });
    await links.getByLabel('Add a check', { exact: true }).selectOption({ label: 'Unreachable link' });
    // The demo course's links are broken on purpose: this checklist tolerates them.
    await links.getByLabel('Findings allowed', { exact: true }).fill('100');
    await view.getByRole('button', { name: 'Add an item' }).click();
    const contact = view.getByRole('group', { name: 'Item 2' });
    await contact.getByLabel('Title', { exact: true }).fill('Instructor contact information is correct');
    await contact.getByLabel('Id', { exact: true }).fill('contact');
    await contact.getByLabel('Answered by a person', { exact: true }).check();
    accessibility['protocol view'] = await axeViolations(page);
    await shot(page, 'protocol-made');
    await view.getByRole('button', { name: 'Save protocol' }).click();
    await view.getByText('The protocol of Demo College is saved. Its next runs are scored by it.').waitFor();
    await view.getByRole('button', { name: 'Close' }).click();

    // A run of that client, scored by it.
    await fillCourseForm(page, { username: DEMO_USER, password: DEMO_PASSWORD, siteUrl: env.demo.origin, orgUnitId: String(DEMO_ORG_UNIT), client: 'Demo College' });
    await page.getByRole('button', { name: 'Choose Modules' }).click();
    // Unit 3 left out keeps the two runs shorter; what is left has links to score.
    const modules = page.getByRole('group', { name: 'Modules' });
    await modules.getByRole('checkbox', { name: 'Unit 3: Climate' }).uncheck();
    await page.getByRole('button', { name: 'Run CTPO' }).click();
    await page.getByText('QA job completed successfully.').waitFor({ timeout: 300_000 });
    const runs = page.getByRole('region', { name: 'Recent runs' });
    const first = runs.getByRole('article').first();
    await first.getByText('Readiness score: 100 of 100.').waitFor();

    // Sign-off is refused while the manual item needs a person; the person answers it.
    await first.getByRole('button', { name: 'Sign off' }).click();
    const signOff = page.getByRole('region', { name: 'Sign-off: Demo College' });
    await signOff.getByText('Demo College launch checklist, version 3').waitFor();
    await signOff.getByRole('button', { name: 'Mark ready for launch' }).click();
    await signOff.getByRole('alert').getByText('The run cannot be marked ready for launch yet: 0 items fail and 1 needs a person.').waitFor();
    const answer = signOff.getByRole('group', { name: 'Your answer: Instructor contact information is correct' });
    await answer.getByLabel('Pass', { exact: true }).check();
    await answer.getByLabel('Note', { exact: true }).fill('Checked with the dean’s office.');
    await answer.getByRole('button', { name: 'Save the answer to “Instructor contact information is correct”' }).click();
    await signOff.getByText('Saved.').waitFor();
    await signOff.getByText(`Answered by ${USER.email} on`).waitFor();
    accessibility['sign-off'] = await axeViolations(page);
    await shot(page, 'answered');
    await signOff.getByRole('button', { name: 'Close' }).click();

    // The next run of the course carries the answer into its report.
    await first.getByRole('button', { name: 'Run again' }).click();
    await page.getByLabel('Brightspace Username', { exact: true }).fill(DEMO_USER);
    await page.getByLabel('Brightspace Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Choose Modules' }).click();
    await page.getByRole('button', { name: 'Run CTPO' }).click();
    await page.getByText('QA job completed successfully.').waitFor({ timeout: 300_000 });
    await runs.getByRole('article').nth(1).waitFor();
    const second = runs.getByRole('article').first();
    const [reportPage] = await Promise.all([env.context.waitForEvent('page'), second.getByRole('link', { name: /View report/ }).click()]);
    await reportPage.waitForLoadState();
    const plain = (text: string) => text.replace(/[\u2068\u2069]/g, '');
    const protocolText = plain(await reportPage.locator('#protocol').innerText());
    expect(protocolText).toContain('Demo College launch checklist, version 3');
    expect(protocolText).toContain('Readiness score: 100 of 100');
    expect(protocolText).toMatch(/Instructor contact information is correct[\s\S]*Answered by qa@example\.com on[\s\S]*Note: Checked with the dean’s office\./);
    await shot(reportPage, 'next-report');
    await reportPage.close();

    // That run is marked ready for launch.
    await second.getByRole('button', { name: 'Sign off' }).click();
    await signOff.getByRole('button', { name: 'Mark ready for launch' }).click();
    await signOff.getByText(`Ready for launch: marked by ${USER.email} on`).waitFor();
    await second.getByText(`Ready for launch (marked by ${USER.email}).`).waitFor();
    await shot(page, 'ready');
    const [signedReport] = await Promise.all([env.context.waitForEvent('page'), second.getByRole('link', { name: /View report/ }).click()]);
    await signedReport.waitForLoadState();
    expect(plain(await signedReport.locator('#protocol').innerText())).toContain(`Marked ready for launch by ${USER.email} on`);
    await signedReport.close();
    // Two whole runs of the demo course: a limit only against a hung browser.
  }, 600_000);

  it('meets WCAG 2.x A and AA, colour contrast included, in the new views', () => {
    expect(Object.keys(accessibility)).toEqual(['protocol view', 'sign-off']);
    for (const [state, violations] of Object.entries(accessibility)) {
      expect(violations, `${state}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
    }
  });
});
