// What a user sees when something goes wrong, in Chromium against the local stack: a wrong sign-in
// password, a wrong Brightspace password, a run whose site goes down after its modules were
// loaded, and a page reloaded in the middle of a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrightspaceSite } from '../../api/local/demo-course/brightspace-site.ts';
import type { BrightspaceSite, SiteModel } from '../../api/local/demo-course/brightspace-site.ts';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER } from '../../api/local/demo-course/demo-course.ts';
import { axeViolations, fillCourseForm, startE2eEnvironment, USER } from './support/e2e-environment.ts';
import type { E2eEnvironment } from './support/e2e-environment.ts';
import { smallCourse } from './support/small-course.ts';

let env: E2eEnvironment;
const sites: BrightspaceSite[] = [];

async function startSite(model: SiteModel): Promise<BrightspaceSite> {
  const site = await startBrightspaceSite(model);
  sites.push(site);
  return site;
}

async function chooseModules(siteUrl: string, password = DEMO_PASSWORD): Promise<void> {
  const { page } = env;
  await fillCourseForm(page, { username: DEMO_USER, password, siteUrl, orgUnitId: String(DEMO_ORG_UNIT), client: 'Demo College' });
  await page.getByRole('button', { name: 'Choose Modules' }).click();
}

beforeAll(async () => {
  env = await startE2eEnvironment('error-paths');
});

afterAll(async () => {
  await env?.close();
  await Promise.all(sites.map((site) => site.close()));
});

describe('when something goes wrong', () => {
  it('a wrong sign-in password shows an error on the sign-in page, and the right one gets in', async () => {
    const { page, shot } = env;
    await page.goto(`${env.stack.origin}/`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email', { exact: true }).fill(USER.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
    // Still on the sign-in page, the e-mail kept, the password not.
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(USER.email);
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    await shot(page, 'wrong-sign-in-password');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Password', { exact: true }).fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Welcome, ${USER.email}`).waitFor();
  });

  it('a wrong Brightspace password shows "Failed to load TOC" with the reason, and no modules', async () => {
    const { page, shot } = env;
    await chooseModules(env.demo.origin, 'wrong-brightspace-password');
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to load TOC' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Brightspace did not accept this user name and password. Check them and try again.');
    // One error message, with the reason once.
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(await page.getByText('Brightspace did not accept this user name and password. Check them and try again.').count()).toBe(1);
    expect(await page.getByRole('group', { name: 'Modules' }).count()).toBe(0);
    await shot(page, 'wrong-brightspace-password');
    const violations = await axeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    // Correcting the password clears the error and loads the modules.
    await page.getByLabel('Brightspace Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Choose Modules' }).click();
    await page.getByRole('group', { name: 'Modules' }).waitFor();
    expect(await page.getByText('Failed to load TOC').count()).toBe(0);
  });

  it('a run whose site goes down after the modules were loaded fails with "Job failed. Check logs for details." and the reason', async () => {
    const { page, shot } = env;
    const site = await startSite(smallCourse(env.demo.web.origin, 'Going down', 0));
    await chooseModules(site.origin);
    await page.getByRole('group', { name: 'Modules' }).getByRole('checkbox', { name: 'Week 1' }).waitFor();
    await site.close();

    await page.getByRole('button', { name: 'Run CTPO' }).click();
    await page.getByText('Job failed. Check logs for details.', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('QA job failed. Check logs for details.').isVisible()).toBe(true);
    expect(await page.locator('.job-monitor__reason').innerText()).toMatch(/^127\.0\.0\.1:\d+ refused the connection\. Check the Client Site URL, or try again later\.$/);
    expect(await page.getByRole('link', { name: /View HTML Output/ }).count()).toBe(0);
    // Told once: the start's success banner has gone, and the monitor's is the one error message.
    expect(await page.getByText(/Success/).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(1);
    await shot(page, 'run-failed');
    const violations = await axeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  it('a reload during a run resumes the monitor on the same job, which reaches the end', async () => {
    const { page, shot } = env;
    const site = await startSite(smallCourse(env.demo.web.origin, 'Slow links', 6000));
    await chooseModules(site.origin);
    await page.getByRole('group', { name: 'Modules' }).getByRole('checkbox', { name: 'Week 1' }).waitFor();
    await page.getByRole('button', { name: 'Run CTPO' }).click();
    await page.getByText('Job is running...').waitFor({ timeout: 30_000 });
    const before = await page.locator('.job-monitor__id').innerText();
    await shot(page, 'before-reload');

    const leaving = page.waitForEvent('dialog');
    await page.reload();
    // The monitor asked before leaving a running job (accepted by the test environment).
    expect((await leaving).type()).toBe('beforeunload');
    await page.getByRole('heading', { name: 'Monitoring job' }).waitFor();
    expect(await page.locator('.job-monitor__id').innerText()).toBe(before);
    await page.getByText('Job is running...').waitFor();
    await shot(page, 'after-reload');

    await page.getByText('QA job completed successfully.').waitFor({ timeout: 60_000 });
    expect(await page.getByRole('link', { name: /View HTML Output/ }).isVisible()).toBe(true);
    expect(await env.stack.jobs.get(before)).toMatchObject({ status: 'SUCCEEDED' });
    await shot(page, 'resumed-to-the-end');
  });
});
