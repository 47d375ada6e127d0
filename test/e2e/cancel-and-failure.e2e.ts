// One outcome, told once, and a run that can be stopped, in Chromium against the local stack: a
// run whose Brightspace password no longer works gives exactly one error message; a running job
// cancelled from its monitor (confirmed by keyboard) ends FAILED "Cancelled" within 15 s and leaves
// no report; the monitor names the client and the course and counts the time, also after a reload;
// a fourth start refused by the limit keeps the monitor of the run being followed.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrightspaceSite } from '../../api/local/demo-course/brightspace-site.ts';
import type { BrightspaceSite, SiteModel } from '../../api/local/demo-course/brightspace-site.ts';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER } from '../../api/local/demo-course/demo-course.ts';
import { axeViolations, fillCourseForm, signIn, startE2eEnvironment, USER } from './support/e2e-environment.ts';
import type { E2eEnvironment } from './support/e2e-environment.ts';
import { smallCourse } from './support/small-course.ts';

let env: E2eEnvironment;
const sites: BrightspaceSite[] = [];

async function startSite(model: SiteModel): Promise<BrightspaceSite> {
  const site = await startBrightspaceSite(model);
  sites.push(site);
  return site;
}

async function loadModules(siteUrl: string, client: string): Promise<void> {
  const { page } = env;
  await fillCourseForm(page, { username: DEMO_USER, password: DEMO_PASSWORD, siteUrl, orgUnitId: String(DEMO_ORG_UNIT), client });
  await page.getByRole('button', { name: 'Choose Modules' }).click();
  await page.getByRole('group', { name: 'Modules' }).getByRole('checkbox', { name: 'Week 1' }).waitFor();
}

/** The id of the job the page monitors. */
function monitoredJob(): Promise<{ taskArn: string; filename: string }> {
  return env.page.evaluate(() => JSON.parse(localStorage.getItem('ctpo.monitoredJob') ?? '{}') as { taskArn: string; filename: string });
}

/** Every report file of a run in the stack's reports folder. */
function reportFilesOf(filename: string): string[] {
  const dir = join(env.dataDir, 'reports');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith(`${filename}.`)) : [];
}

beforeAll(async () => {
  env = await startE2eEnvironment('cancel-and-failure');
  await env.page.goto(`${env.stack.origin}/`);
  await signIn(env.page);
  await env.page.getByText(`Welcome, ${USER.email}`).waitFor();
});

afterAll(async () => {
  await env?.close();
  await Promise.all(sites.map((site) => site.close()));
});

describe('one outcome, told once', () => {
  it('a run whose Brightspace password stopped working gives exactly one error message, with the reason', async () => {
    const { page, shot } = env;
    const model = smallCourse(env.demo.web.origin, 'Password changed', 0);
    const site = await startSite(model);
    await loadModules(site.origin, 'Password College');
    // The password changes on the site after the modules were loaded with it.
    model.users[0]!.password = 'changed-since';
    await page.getByRole('button', { name: 'Run CTPO' }).click();

    const monitor = page.getByRole('region', { name: 'Monitoring job' });
    await monitor.getByText('Job failed. Check logs for details.', { exact: true }).waitFor({ timeout: 60_000 });
    const alerts = page.getByRole('alert');
    expect(await alerts.count()).toBe(1);
    expect(await alerts.first().innerText()).toMatch(/^Brightspace did not accept this user name and password\. Check them and try again\.\s+QA job failed\. Check logs for details\.$/);
    expect(await page.getByText('Brightspace did not accept this user name and password. Check them and try again.').count()).toBe(1);
    // No success text beside the failure: the start's banner has gone.
    expect(await page.getByText(/Success/).count()).toBe(0);
    expect(await page.locator('.status-banner').count()).toBe(1);
    await shot(page, 'wrong-password-once');
    const violations = await axeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });
});

describe('Cancel', () => {
  it('stops a running job from the monitor, confirmed by keyboard: FAILED "Cancelled" within 15 s, and no report', async () => {
    const { page, shot } = env;
    const site = await startSite(smallCourse(env.demo.web.origin, 'Slow Biology', 90_000));
    await loadModules(site.origin, 'Cancel College');
    await page.getByRole('button', { name: 'Run CTPO' }).click();
    const monitor = page.getByRole('region', { name: 'Monitoring job' });
    await monitor.getByText('Job is running...').waitFor({ timeout: 60_000 });
    const { taskArn, filename } = await monitoredJob();

    // Whose run it is, by the course's name once the run has read it, and for how long.
    await monitor.getByText('Cancel College: Slow Biology (Org Unit ID 6606)').waitFor();
    const elapsed = monitor.getByText(/^Elapsed time: \d+:\d{2}$/);
    const first = await elapsed.innerText();
    await page.waitForFunction((before) => document.querySelector('.job-monitor__elapsed')?.textContent !== before, first);
    await shot(page, 'running-named-and-timed');

    // After a reload: the same names, before and after the first answer.
    await page.reload();
    await monitor.getByText('Cancel College: Slow Biology (Org Unit ID 6606)').waitFor();
    await monitor.getByText(/^Elapsed time: /).waitFor();
    expect(await monitor.locator('.job-monitor__id').innerText()).toBe(taskArn);

    await monitor.getByRole('button', { name: 'Cancel run' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Cancel this run?' });
    await dialog.waitFor();
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
    await shot(page, 'cancel-confirm');
    const dialogViolations = await axeViolations(page);
    expect(dialogViolations, JSON.stringify(dialogViolations, null, 2)).toEqual([]);
    // Tab to the safe answer first, then on to Cancel the run.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep running');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel the run');
    const cancelledAt = Date.now();
    await page.keyboard.press('Enter');

    await monitor.getByText('Cancelled', { exact: true }).waitFor({ timeout: 15_000 });
    await monitor.getByText('Job failed. Check logs for details.', { exact: true }).waitFor({ timeout: 15_000 });
    expect(Date.now() - cancelledAt).toBeLessThan(15_000);
    expect(await env.stack.jobs.get(taskArn)).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    expect(await monitor.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /View HTML Output/ }).count()).toBe(0);
    await shot(page, 'cancelled');
    const violations = await axeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    // The run's process is gone, and with it any report.
    await env.stack.runner.idle();
    expect(reportFilesOf(filename)).toEqual([]);
    // Recent runs list it as failed; why is said once, in the monitor above.
    const item = page.getByRole('region', { name: 'Recent runs' }).getByRole('article').first();
    await item.getByText('Failed', { exact: true }).waitFor();
    expect(await page.getByText('Cancelled', { exact: true }).count()).toBe(1);
  });

  it('keeps the monitor of the run being followed when a fourth start is refused', async () => {
    const { page, shot } = env;
    const site = await startSite(smallCourse(env.demo.web.origin, 'Slow Chemistry', 90_000));
    await loadModules(site.origin, 'Busy College');
    const started: string[] = [];
    for (let run = 0; run < 3; run += 1) {
      const before = (await monitoredJob()).taskArn;
      await page.getByRole('button', { name: 'Run CTPO' }).click();
      await page.waitForFunction((previous) => (JSON.parse(localStorage.getItem('ctpo.monitoredJob') ?? '{}') as { taskArn?: string }).taskArn !== previous, before);
      started.push((await monitoredJob()).taskArn);
      await page.waitForFunction(() => [...document.querySelectorAll('button')].some((button) => button.textContent === 'Run CTPO' && !button.disabled));
    }
    const followed = started[2]!;
    await page.getByRole('button', { name: 'Run CTPO' }).click();
    await page.getByRole('alert').filter({ hasText: '❌ Error: Failed to start test run' }).waitFor();
    await page.getByText('You already have 3 test runs in progress. Wait for one to finish, then start this one.').waitFor();
    const monitor = page.getByRole('region', { name: 'Monitoring job' });
    expect(await monitor.locator('.job-monitor__id').innerText()).toBe(followed);
    expect((await monitoredJob()).taskArn).toBe(followed);
    await shot(page, 'fourth-refused');

    // Tidy up through the API, as the monitor does: each run cancelled.
    for (const id of started) {
      const job = await env.stack.jobs.get(id);
      expect(job?.status).not.toBe('FAILED');
    }
    await monitor.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel the run' }).click();
    await monitor.getByText('Cancelled', { exact: true }).waitFor({ timeout: 15_000 });
    for (const id of started.slice(0, 2)) {
      const status = await page.evaluate(async (taskArn) => {
        const token = Object.entries(localStorage).find(([key]) => key.endsWith('.accessToken'))?.[1];
        const answer = await fetch(`/api/jobs/${encodeURIComponent(taskArn)}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
        return answer.status;
      }, id);
      expect(status).toBe(200);
    }
    await env.stack.runner.idle();
  });
});
