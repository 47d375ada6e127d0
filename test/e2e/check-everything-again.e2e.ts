// "Check everything again" in Chromium against the local stack: the choice is there above 'Run
// CTPO', off, with its hint; a run started with it ticked is recorded as such and succeeds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrightspaceSite } from '../../api/local/demo-course/brightspace-site.ts';
import type { BrightspaceSite } from '../../api/local/demo-course/brightspace-site.ts';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER } from '../../api/local/demo-course/demo-course.ts';
import { axeViolations, fillCourseForm, signIn, startE2eEnvironment, USER } from './support/e2e-environment.ts';
import type { E2eEnvironment } from './support/e2e-environment.ts';
import { smallCourse } from './support/small-course.ts';

let env: E2eEnvironment;
let site: BrightspaceSite;

beforeAll(async () => {
  env = await startE2eEnvironment('check-everything-again');
  site = await startBrightspaceSite(smallCourse(env.demo.web.origin, 'Full Biology', 0));
  await env.page.goto(`${env.stack.origin}/`);
  await signIn(env.page);
  await env.page.getByText(`Welcome, ${USER.email}`).waitFor();
});

afterAll(async () => {
  await env?.close();
  await site?.close();
});

describe('Check everything again', () => {
  it('is offered above Run CTPO with its hint, and a run started with it succeeds', async () => {
    const { page, shot } = env;
    await fillCourseForm(page, { username: DEMO_USER, password: DEMO_PASSWORD, siteUrl: site.origin, orgUnitId: String(DEMO_ORG_UNIT), client: 'Full College' });
    await page.getByRole('button', { name: 'Choose Modules' }).click();
    await page.getByRole('group', { name: 'Modules' }).getByRole('checkbox', { name: 'Week 1' }).waitFor();

    const full = page.getByRole('checkbox', { name: 'Check everything again' });
    expect(await full.isChecked()).toBe(false);
    expect(await full.getAttribute('aria-describedby')).toBeTruthy();
    const hint = page.locator(`[id="${await full.getAttribute('aria-describedby')}"]`);
    expect(await hint.innerText()).toBe('Ignore verdicts kept from earlier runs and check every item now.');
    await full.check();
    await shot(page, 'check-everything-again');
    const violations = await axeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);

    await page.getByRole('button', { name: 'Run CTPO' }).click();
    await page.getByText('QA job completed successfully.').waitFor({ timeout: 60_000 });
    const { taskArn } = await page.evaluate(() => JSON.parse(localStorage.getItem('ctpo.monitoredJob') ?? '{}') as { taskArn: string });
    expect(await env.stack.jobs.get(taskArn)).toMatchObject({ status: 'SUCCEEDED', full: true });
  });
});
