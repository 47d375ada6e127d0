// The main job as a user does it, in Chromium against the local stack and the demo course: sign in,
// fill the form, choose modules, deselect one, run, follow the monitor to the end, open and
// download the report, sign out. axe-core checks each state of the page on the way.
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER } from '../../api/local/demo-course/demo-course.ts';
import { axeViolations, fillCourseForm, startE2eEnvironment, USER } from './support/e2e-environment.ts';
import type { AxeViolationSummary, E2eEnvironment } from './support/e2e-environment.ts';

let env: E2eEnvironment;
const accessibility: Record<string, AxeViolationSummary[]> = {};

beforeAll(async () => {
  env = await startE2eEnvironment('main-job');
});

afterAll(async () => {
  await env?.close();
});

describe('the main job', () => {
  it('signs in, tests the demo course, opens and downloads the report, signs out', async () => {
    const { page, shot } = env;

    await page.goto(`${env.stack.origin}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect(page.getByRole('heading', { name: 'CTPO: Course Testing Protocol Observer' }).isVisible()).resolves.toBe(true);
    await shot(page, 'signed-out');
    accessibility['signed-out screen'] = await axeViolations(page);

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email', { exact: true }).waitFor();
    await shot(page, 'hosted-sign-in');
    accessibility['sign-in page'] = await axeViolations(page);
    await page.getByLabel('Email', { exact: true }).fill(USER.email);
    await page.getByLabel('Password', { exact: true }).fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByText(`Welcome, ${USER.email}`).waitFor();
    // The return from the hosted login leaves no code or state in the address bar.
    await page.waitForURL((url) => !url.searchParams.has('code') && !url.searchParams.has('state'));
    await expect(page.getByRole('button', { name: 'Choose Modules' }).isDisabled()).resolves.toBe(true);
    await shot(page, 'signed-in');
    accessibility['empty form'] = await axeViolations(page);

    await page.getByRole('button', { name: 'Need help? Click the link for instructions on how to use CTPO.' }).click();
    const help = page.getByRole('dialog', { name: 'How to Use the CTPO Form' });
    await help.waitFor();
    await shot(page, 'help');
    accessibility['help dialog'] = await axeViolations(page);
    await help.getByRole('button', { name: 'Close' }).click();
    await help.waitFor({ state: 'hidden' });

    await fillCourseForm(page, { username: DEMO_USER, password: DEMO_PASSWORD, siteUrl: env.demo.origin, orgUnitId: String(DEMO_ORG_UNIT), client: 'Demo College' });
    await shot(page, 'form-filled');
    await page.getByRole('button', { name: 'Choose Modules' }).click();
    const modules = page.getByRole('group', { name: 'Modules' });
    await modules.waitFor();
    const boxes = modules.getByRole('checkbox');
    expect(await boxes.count()).toBe(7);
    expect(await modules.getByText('7 of 7 selected').isVisible()).toBe(true);
    // Loaded with these values: loading again is pointless until a field changes.
    await expect(page.getByRole('button', { name: 'Choose Modules' }).isDisabled()).resolves.toBe(true);
    await shot(page, 'modules');
    accessibility['modules loaded'] = await axeViolations(page);

    await modules.getByRole('checkbox', { name: 'Unit 3: Climate' }).uncheck();
    await modules.getByText('6 of 7 selected').waitFor();
    await shot(page, 'one-deselected');

    await page.getByRole('button', { name: 'Run CTPO' }).click();
    await page.getByText(/^✅ Success: Test run started for Demo College: 6 modules of course 6606\.$/).waitFor();
    await page.getByRole('heading', { name: 'Monitoring job' }).waitFor();
    await shot(page, 'run-started');
    await page.getByText('QA job completed successfully.').waitFor({ timeout: 60_000 });
    await shot(page, 'succeeded');
    accessibility['run succeeded'] = await axeViolations(page);

    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('ctpo.monitoredJob') ?? '{}') as { taskArn?: string; filename?: string });
    expect(stored.filename).toMatch(/^demo-college-ou6606-\d{8}t\d{6}z-[a-z2-7]{16}$/);
    expect(await page.locator('.job-monitor__id').textContent()).toBe(stored.taskArn);

    const view = page.getByRole('link', { name: /View HTML Output/ });
    expect(await view.getAttribute('target')).toBe('_blank');
    const [reportPage] = await Promise.all([env.context.waitForEvent('page'), view.click()]);
    await reportPage.waitForLoadState();
    expect(reportPage.url()).toBe(`${env.stack.origin}/reports/${stored.filename}.html`);
    const reportText = await reportPage.locator('body').innerText();
    expect(reportText).toContain('Demo College');
    expect(reportText).toContain('Environmental Science 101');
    for (const finding of ['Broken link', 'Unreachable link', 'Link into another course', 'File name used as alt text', 'Video without captions', 'Placeholder text', 'Dates out of order', 'Accessibility: color-contrast']) {
      expect(reportText, finding).toContain(finding);
    }
    // The deselected module was not tested.
    expect(reportText).not.toContain('Unit 3: Climate');
    expect(reportText).not.toContain('Empty module');
    await shot(reportPage, 'report');
    await reportPage.close();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: '⬇ Download' }).click()]);
    // The link's download name is the file name; Chromium adds the extension of the HTML it got.
    expect(download.suggestedFilename()).toBe(`${stored.filename}.html`);
    const downloaded = readFileSync(await download.path(), 'utf8');
    expect(downloaded).toMatch(/^<!doctype html>/i);
    expect(downloaded).toContain('Environmental Science 101');
    expect(downloaded).toBe(readFileSync(join(env.dataDir, 'reports', `${stored.filename}.html`), 'utf8'));

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByText(`Welcome, ${USER.email}`).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('ctpo.monitoredJob'))).toBeNull();
    await shot(page, 'signed-out-again');
  });

  it('meets WCAG 2.x A and AA, colour contrast included, in every state on the way', () => {
    expect(Object.keys(accessibility)).toEqual(['signed-out screen', 'sign-in page', 'empty form', 'help dialog', 'modules loaded', 'run succeeded']);
    for (const [state, violations] of Object.entries(accessibility)) {
      expect(violations, `${state}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
    }
  });

  it('wrote the Brightspace password nowhere: not in the logs, the job database or the reports', async () => {
    expect(env.logs.join('\n')).not.toContain(DEMO_PASSWORD);
    const files = await readdir(env.dataDir, { recursive: true });
    const written = files.filter((file) => /\.(sqlite|sqlite-wal|html|json)$/.test(file));
    expect(written.length).toBeGreaterThanOrEqual(3);
    for (const file of written) {
      expect(readFileSync(join(env.dataDir, file)).includes(DEMO_PASSWORD), file).toBe(false);
    }
  });
});
