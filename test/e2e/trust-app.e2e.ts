// The app a QA person can trust, in Chromium against the local stack and the demo course: a parent
// module shows mixed when one of its sub-modules is unchecked, and the run tests exactly that (the
// parent's own topics and the checked sub-modules); a changed field holds 'Run CTPO' back until the
// modules are loaded again; Recent runs say what each run covered, in the reader's time zone;
// 'Run again' fills the user name and waits at the password; course-wide items run alone; the
// Findings panel names problems in the interface's language; a pasted course address fills the
// form; the help dialog's Close stays on a phone's screen; Arabic addresses read left to right and
// Japanese titles break between phrases.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER } from '../../api/local/demo-course/demo-course.ts';
import type { Report } from '../../api/report/model.ts';
import { axeViolations, fillCourseForm, signIn, startE2eEnvironment, USER } from './support/e2e-environment.ts';
import type { AxeViolationSummary, E2eEnvironment } from './support/e2e-environment.ts';

let env: E2eEnvironment;
const accessibility: Record<string, AxeViolationSummary[]> = {};
const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 320, height: 568 };
const DESKTOP = { width: 1280, height: 900 };
const OUT_OF_DATE = 'The fields have changed since these modules were loaded. Select Choose Modules to load them again before you run CTPO.';
const DEMO_FIELDS = () => ({ username: DEMO_USER, password: DEMO_PASSWORD, siteUrl: env.demo.origin, orgUnitId: String(DEMO_ORG_UNIT), client: 'Demo College' });

beforeAll(async () => {
  env = await startE2eEnvironment('trust-app');
});

afterAll(async () => {
  await env?.close();
});

function reportJson(filename: string): Report {
  return JSON.parse(readFileSync(join(env.dataDir, 'reports', `${filename}.json`), 'utf8')) as Report;
}

/** The report file name of the run the page monitors. */
async function monitoredFilename(page: Page): Promise<string> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem('ctpo.monitoredJob') ?? '{}') as { filename: string }).filename);
}

/** The body of the next POST /api/run-tests the page sends, once it is sent. */
function nextRunRequest(page: Page): Promise<Record<string, unknown>> {
  return page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/run-tests').then((request) => request.postDataJSON() as Record<string, unknown>);
}

/** A checkbox's state as a browser and assistive technology see it. */
function checkState(page: Page, name: string): Promise<{ checked: boolean; indeterminate: boolean; ariaChecked: string | null }> {
  return page
    .getByRole('group', { name: 'Modules' })
    .getByRole('checkbox', { name, exact: true })
    .evaluate((box) => ({ checked: (box as HTMLInputElement).checked, indeterminate: (box as HTMLInputElement).indeterminate, ariaChecked: box.getAttribute('aria-checked') }));
}

/** How the screenshots and times read: in Toronto, whatever the machine's zone. */
async function inToronto(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setTimezoneOverride', { timezoneId: 'America/Toronto' });
}

describe('a module without one of its sub-modules', () => {
  it('shows the parent mixed, and the run tests the parent’s own topics and the checked sub-modules; Run again fills the user name', async () => {
    const { page, shot } = env;
    await page.setViewportSize(DESKTOP);
    await inToronto(page);
    await page.goto(`${env.stack.origin}/`);
    await signIn(page);
    await page.getByText(`Welcome, ${USER.email}`).waitFor();

    await fillCourseForm(page, DEMO_FIELDS());
    await page.getByRole('button', { name: 'Choose Modules' }).click();
    const modules = page.getByRole('group', { name: 'Modules' });
    await modules.getByText('7 of 7 modules selected, 20 topics').waitFor();

    // Unit 1 holds its own notes and two sub-modules; 1.2 Activities goes.
    await modules.getByRole('checkbox', { name: '1.2 Activities' }).uncheck();
    expect(await checkState(page, 'Unit 1: Ecosystems')).toEqual({ checked: false, indeterminate: true, ariaChecked: 'mixed' });
    expect(await checkState(page, '1.1 Readings')).toEqual({ checked: true, indeterminate: false, ariaChecked: null });
    // Unit 1's own topic stays counted: 20 topics less 1.2's three.
    await modules.getByText('6 of 7 modules selected, 17 topics').waitFor();
    // The rest of the course is left out, so the run is Unit 1 alone.
    for (const name of ['Start here', 'Unit 2: Water', 'Unit 3: Climate', 'Final project']) await modules.getByRole('checkbox', { name, exact: true }).uncheck();
    for (const item of await page.getByRole('group', { name: 'Course-wide items' }).getByRole('checkbox').all()) await item.uncheck();
    await modules.getByText('2 of 7 modules selected, 3 topics').waitFor();
    expect(await checkState(page, 'Unit 1: Ecosystems')).toEqual({ checked: false, indeterminate: true, ariaChecked: 'mixed' });
    await shot(page, 'parent-mixed');
    accessibility['a parent mixed'] = await axeViolations(page);

    // A changed field holds the run back, saying why, until the modules are loaded with it.
    await page.getByLabel('Brightspace Password', { exact: true }).fill('not-the-password');
    const run = page.getByRole('button', { name: 'Run CTPO' });
    expect(await run.isDisabled()).toBe(true);
    await page.getByText(OUT_OF_DATE).waitFor();
    expect(await run.getAttribute('aria-describedby')).toBe(await page.getByText(OUT_OF_DATE).getAttribute('id'));
    expect(await page.getByRole('button', { name: 'Choose Modules' }).isEnabled()).toBe(true);
    await shot(page, 'out-of-date');
    accessibility['modules out of date'] = await axeViolations(page);
    await page.getByLabel('Brightspace Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByText(OUT_OF_DATE).waitFor({ state: 'detached' }).catch(() => undefined);
    expect(await page.getByText(OUT_OF_DATE).count()).toBe(0);
    expect(await run.isEnabled()).toBe(true);

    const sent = nextRunRequest(page);
    await run.click();
    expect(await sent).toMatchObject({ MODULES: [200, 210], EXCLUDE_MODULES: [220], SCOPES: [], MODULE_TITLES: { 200: 'Unit 1: Ecosystems', 220: '1.2 Activities' } });
    await page.getByText('QA job completed successfully.').waitFor({ timeout: 90_000 });

    const report = reportJson(await monitoredFilename(page));
    expect(report.modules.map((module) => [module.moduleId, module.topics.map((topic) => topic.topicId)])).toEqual([
      [200, [2001]],
      [210, [2101, 2102]],
    ]);
    expect(report.totals.topics).toBe(3);
    // The parent's own notes were read and judged: their placeholder text is found.
    expect(report.findings.some((finding) => finding.topicId === 2001 && finding.check === 'content.placeholder')).toBe(true);
    expect(report.findings.some((finding) => finding.moduleId === 220)).toBe(false);

    // Recent runs say what it covered, in which language, and when, in the reader's zone.
    const runs = page.getByRole('region', { name: 'Recent runs' });
    const item = runs.getByRole('article').first();
    await item.getByText('Succeeded').waitFor();
    const covered = await item.locator('dl > div').allInnerTexts();
    expect(covered.map((line) => line.replace(/\s+/g, ' '))).toEqual(['Modules Unit 1: Ecosystems, without 1.2 Activities', 'Course-wide items None', 'Language English (United States)']);
    // Start and end, the date once, the zone named (Toronto's, set for this page).
    const when = await item.locator('time').innerText();
    // (One time when both fall in the same minute.)
    expect(when).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}(\s[AP]M)?(\s?–\s?\d{1,2}:\d{2})?\s[AP]M E[SD]T$/);
    expect(when.match(/\d{4}/g)).toHaveLength(1);
    await shot(page, 'recent-run-covered');

    // Whatever was typed, 'Run again' puts back the run's user name and asks for the password.
    await page.getByLabel('Brightspace Username', { exact: true }).fill('someone.else');
    await page.getByLabel('Brightspace Password', { exact: true }).fill('their-secret');
    await item.getByRole('button', { name: 'Run again' }).click();
    expect(await page.getByLabel('Brightspace Username', { exact: true }).inputValue()).toBe(DEMO_USER);
    expect(await page.getByLabel('Brightspace Password', { exact: true }).inputValue()).toBe('');
    await page.waitForFunction(() => document.activeElement?.id === 'ctpo-password');
    await page.getByText(/^Filled in from the run for Demo College of .+ E[SD]T\. Enter the Brightspace password, then choose modules/).waitFor();
    await shot(page, 'run-again');
    accessibility['run again'] = await axeViolations(page);

    await page.getByLabel('Brightspace Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Choose Modules' }).click();
    await modules.getByText('2 of 7 modules selected, 3 topics').waitFor();
    expect(await checkState(page, 'Unit 1: Ecosystems')).toEqual({ checked: false, indeterminate: true, ariaChecked: 'mixed' });
    expect(await checkState(page, '1.2 Activities')).toMatchObject({ checked: false, indeterminate: false });
    expect(await checkState(page, '1.1 Readings')).toMatchObject({ checked: true });
  });

  it('runs course-wide items alone', async () => {
    const { page, shot } = env;
    await page.getByRole('button', { name: 'Deselect All' }).click();
    expect(await page.getByRole('button', { name: 'Run CTPO' }).isDisabled()).toBe(true);
    await page.getByRole('group', { name: 'Course-wide items' }).getByRole('checkbox', { name: 'Announcements' }).check();
    const sent = nextRunRequest(page);
    await page.getByRole('button', { name: 'Run CTPO' }).click();
    expect(await sent).toMatchObject({ MODULES: [], SCOPES: ['announcements'] });
    await page.getByText('✅ Success: Test run started for Demo College: course-wide items of course 6606.').waitFor();
    await page.getByText('QA job completed successfully.').waitFor({ timeout: 90_000 });
    const report = reportJson(await monitoredFilename(page));
    expect(report.modules).toEqual([]);
    expect(report.scopes).toEqual(['announcements']);
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.every((finding) => finding.moduleId === null)).toBe(true);
    const item = page.getByRole('region', { name: 'Recent runs' }).getByRole('article').first();
    await item.getByText('Succeeded').waitFor();
    expect((await item.locator('dl > div').allInnerTexts()).map((line) => line.replace(/\s+/g, ' '))).toEqual([
      'Modules None (course-wide items only)',
      'Course-wide items Announcements',
      'Language English (United States)',
    ]);
    await shot(page, 'course-wide-alone');
  });
});

describe('the Findings panel', () => {
  it('gathers the findings by problem, named and fixed in the interface’s language, and dismisses one', async () => {
    const { page, shot } = env;
    const runs = page.getByRole('region', { name: 'Recent runs' });
    // The Unit 1 run: the second in the list.
    await runs.getByRole('article').nth(1).getByRole('button', { name: 'Findings' }).click();
    const findings = page.getByRole('region', { name: /^Findings of Demo College/ });
    await findings.getByText(/findings shown\./).waitFor();
    const groups = findings.locator('.finding-group__toggle');
    const titles = await findings.locator('.finding-group__title').allInnerTexts();
    expect(titles.length).toBeGreaterThan(3);
    // Names, never check ids; closed, with their counts.
    expect(titles).toContain('Broken link');
    expect(titles.some((title) => /^[a-z0-9]+\.[a-z0-9-]+$/.test(title))).toBe(false);
    expect(await groups.evaluateAll((buttons) => buttons.every((button) => button.getAttribute('aria-expanded') === 'false'))).toBe(true);
    expect(await findings.getByRole('button', { name: /^Broken link Error \d+ findings?$/ }).count()).toBe(1);
    expect(await findings.getByRole('listitem').count()).toBe(0);
    await shot(page, 'findings-grouped');
    accessibility['findings grouped'] = await axeViolations(page);

    await findings.getByLabel('Check').selectOption({ label: 'Placeholder text' });
    // One problem left: it opens by itself, with its fix once.
    await findings.getByText(/^How to fix: Replace the placeholder with the real content\.$/).waitFor();
    const placeholder = findings.getByRole('listitem').filter({ hasText: 'Unit 1 notes' });
    await placeholder.getByRole('button', { name: 'Dismiss' }).click();
    await placeholder.getByLabel('Why dismiss it? (optional)').fill('Sample text, replaced before launch.');
    await placeholder.getByRole('button', { name: 'Dismiss finding' }).click();
    await placeholder.getByText(`Dismissed by ${USER.email} on`).waitFor();
    accessibility['finding dismissed'] = await axeViolations(page);

    // In French, the same run's problems are named and fixed in French (the panel's name too).
    await page.getByRole('banner').getByRole('combobox', { name: 'Language' }).selectOption('fr-FR');
    const constats = page.getByRole('region', { name: /^Constats de Demo College/ });
    await constats.getByText(/^Comment corriger\s:\sRemplacez le texte provisoire/).waitFor();
    expect(await constats.locator('.finding-group__title').allInnerTexts()).toEqual(['Texte provisoire']);
    await shot(page, 'findings-in-french');
    await page.getByRole('banner').getByRole('combobox', { name: 'Langue' }).selectOption('en');
    await page.getByRole('button', { name: 'Close findings' }).click();
  });
});

describe('the small things', () => {
  it('fills the site and the Org Unit ID from a pasted course address, and says where to find the Org Unit ID', async () => {
    const { page, shot } = env;
    await page.getByLabel('Client Site URL', { exact: true }).fill('');
    await page.getByLabel('Org Unit ID', { exact: true }).fill('');
    const orgUnit = page.getByLabel('Org Unit ID', { exact: true });
    expect(await orgUnit.getAttribute('aria-describedby')).not.toBeNull();
    await page.getByText("The number in the course's address in Brightspace: in …/d2l/home/6606 it is 6606.", { exact: false }).waitFor();
    await orgUnit.click();
    await page.keyboard.insertText(`${env.demo.origin}/d2l/le/content/${DEMO_ORG_UNIT}/viewContent/2101/View`);
    expect(await page.getByLabel('Client Site URL', { exact: true }).inputValue()).toBe(env.demo.origin);
    expect(await orgUnit.inputValue()).toBe(String(DEMO_ORG_UNIT));
    await page.getByText(`Filled in from the course's address: Client Site URL ${env.demo.origin}, Org Unit ID ${DEMO_ORG_UNIT}.`).waitFor();
    // Filled by a script as a paste would, into the site field.
    await page.getByLabel('Client Site URL', { exact: true }).fill(`${env.demo.origin}/d2l/home/${DEMO_ORG_UNIT}`);
    expect(await page.getByLabel('Client Site URL', { exact: true }).inputValue()).toBe(env.demo.origin);
    await shot(page, 'address-pasted');
  });

  it('keeps the help dialog’s Close on a phone’s screen', async () => {
    const { page, shot } = env;
    for (const size of [PHONE, SMALL_PHONE]) {
      await page.setViewportSize(size);
      await page.getByRole('button', { name: 'Need help? Click the link for instructions on how to use CTPO.' }).click();
      const dialog = page.getByRole('dialog', { name: 'How to Use the CTPO Form' });
      await dialog.waitFor();
      await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
      const close = dialog.getByRole('button', { name: 'Close' });
      const box = await close.boundingBox();
      expect(box, `${size.width} px`).not.toBeNull();
      expect(box!.y, `${size.width} px`).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, `${size.width} px`).toBeLessThanOrEqual(size.height);
      // The seed's proportions hold: 90% of the width, at most 80% of the height.
      const frame = (await dialog.boundingBox())!;
      expect(Math.round(frame.width)).toBe(Math.round(size.width * 0.9));
      expect(frame.height).toBeLessThanOrEqual(size.height * 0.8 + 1);
      // Nothing on the page pushes it sideways, down to 320 px.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${size.width} px`).toBe(0);
      await shot(page, `help-${size.width}`);
      await close.click();
      await dialog.waitFor({ state: 'hidden' });
    }
    await page.setViewportSize(DESKTOP);
  });

  it('writes addresses and numbers left to right in Arabic, and breaks Japanese titles between phrases', async () => {
    const { page, shot } = env;
    await page.getByRole('banner').getByRole('combobox', { name: 'Language' }).selectOption('ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    for (const id of ['ctpo-site-url', 'ctpo-org-unit-id']) {
      const style = await page.locator(`#${id}`).evaluate((input) => ({ direction: getComputedStyle(input).direction, align: getComputedStyle(input).textAlign }));
      expect(style, id).toEqual({ direction: 'ltr', align: 'start' });
    }
    // The label stays on the right, as the page reads; the address in the field starts on the left.
    const label = await page.locator('label[for="ctpo-site-url"]').boundingBox();
    const field = await page.locator('#ctpo-site-url').boundingBox();
    expect(label!.x + label!.width).toBeGreaterThan(field!.x + field!.width - 2);
    await shot(page, 'arabic-form');
    accessibility['form in Arabic'] = await axeViolations(page);

    await page.getByRole('banner').getByRole('combobox').selectOption('ja');
    await page.waitForFunction(() => document.documentElement.lang === 'ja');
    const title = page.getByRole('heading', { level: 1 });
    expect(await title.evaluate((heading) => getComputedStyle(heading).wordBreak)).toBe('auto-phrase');
    expect(await title.evaluate((heading) => getComputedStyle(heading).lineBreak)).toBe('strict');
    await page.setViewportSize(SMALL_PHONE);
    await shot(page, 'japanese-phone');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('banner').getByRole('combobox').selectOption('en');
  });

  it('meets WCAG 2.x A and AA, colour contrast included, in the new states', () => {
    expect(Object.keys(accessibility)).toEqual(['a parent mixed', 'modules out of date', 'run again', 'findings grouped', 'finding dismissed', 'form in Arabic']);
    for (const [state, violations] of Object.entries(accessibility)) {
      expect(violations, `${state}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
    }
  });
});
