// What every end-to-end file starts: the local stack on a free port with a temporary data folder
// and a short polling interval, the demo course, and Debian's Chromium with a fresh profile.
// Screenshots of each step are kept under test-results/e2e/ (git-ignored).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { startDemoCourse } from '../../../api/local/demo-course/demo-course.ts';
import type { DemoCourse } from '../../../api/local/demo-course/demo-course.ts';
import { startLocalStack } from '../../../api/local/local-stack.ts';
import type { LocalStack, LocalStackOptions } from '../../../api/local/local-stack.ts';

export const CHROMIUM = process.env.CTPO_E2E_CHROMIUM ?? '/usr/bin/chromium';
export const USER = { email: 'qa@example.com', password: 'ctpo-local' };
/** The app's polling interval in these tests (the smallest /config.json allows). */
export const POLL_INTERVAL_MS = 1000;

const root = fileURLToPath(new URL('../../..', import.meta.url));
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface E2eEnvironment {
  stack: LocalStack;
  demo: DemoCourse;
  context: BrowserContext;
  page: Page;
  dataDir: string;
  /** Every line the stack logged. */
  logs: string[];
  /** Saves a full-page screenshot as test-results/e2e/<suite>/<nn>-<step>.png. */
  shot(page: Page, step: string): Promise<void>;
  close(): Promise<void>;
}

export async function startE2eEnvironment(suite: string, stackOptions: Partial<LocalStackOptions> = {}): Promise<E2eEnvironment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ctpo-e2e-'));
  const profile = mkdtempSync(join(tmpdir(), 'ctpo-e2e-profile-'));
  const shots = join(root, 'test-results', 'e2e', suite);
  rmSync(shots, { recursive: true, force: true });
  mkdirSync(shots, { recursive: true });
  const logs: string[] = [];

  const demo = await startDemoCourse({ port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1' });
  const stack = await startLocalStack({
    dataDir,
    port: 0,
    hosts: ['127.0.0.1'],
    publicHost: '127.0.0.1',
    webDist: join(root, 'web', 'dist'),
    users: [USER],
    useMkcert: false,
    pollIntervalMs: POLL_INTERVAL_MS,
    log: (line) => logs.push(line),
    ...stackOptions,
  });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    // Without the sandbox: this browser plays the user's and opens only CTPO's own app and reports
    // (no course page runs in it: those run in the engine's sandboxed browser), and it saves the
    // downloads the tests read into a folder of this root process, which Chromium's sandboxed user could not write.
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    ignoreHTTPSErrors: true,
    acceptDownloads: true,
    viewport: { width: 1100, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  // Leaving a page with a run in progress asks first; the tests always leave.
  context.on('page', (opened) => opened.on('dialog', (dialog) => void dialog.accept()));
  page.on('dialog', (dialog) => void dialog.accept());

  let step = 0;
  return {
    stack,
    demo,
    context,
    page,
    dataDir,
    logs,
    async shot(target, name) {
      step += 1;
      await target.screenshot({ path: join(shots, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
    },
    async close() {
      await context.close();
      await stack.close();
      await demo.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface AxeViolationSummary {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core in the real browser, on the page as it is now: WCAG 2.x A and AA and best practices,
 * colour contrast included (which jsdom cannot check). Returns the violations, readable.
 */
export async function axeViolations(page: Page): Promise<AxeViolationSummary[]> {
  // Mid-animation (a dialog fading in) colours are not the ones a reader meets.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
  // Evaluated through the DevTools protocol, so the app's Content-Security-Policy stays as it is.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    // axe-core is on the page now; its types are not part of this test's program.
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.map((node) => JSON.stringify(node.target)) }));
  });
}

/**
 * axe on a report. The report is served sandboxed with no script allowed (api/report/report-csp.ts),
 * so in its own tab axe's timers never fire; it runs on the same markup, at the same size, in a page
 * without that policy.
 */
export async function reportAxeViolations(report: Page): Promise<AxeViolationSummary[]> {
  const copy = await report.context().newPage();
  try {
    const size = report.viewportSize();
    if (size !== null) await copy.setViewportSize(size);
    await copy.setContent(await report.content());
    return await axeViolations(copy);
  } finally {
    await copy.close();
  }
}

/** Fills the five course fields as a user types them. */
export async function fillCourseForm(page: Page, fields: { username: string; password: string; siteUrl: string; orgUnitId: string; client: string }): Promise<void> {
  await page.getByLabel('Brightspace Username', { exact: true }).fill(fields.username);
  await page.getByLabel('Brightspace Password', { exact: true }).fill(fields.password);
  await page.getByLabel('Client Site URL', { exact: true }).fill(fields.siteUrl);
  await page.getByLabel('Org Unit ID', { exact: true }).fill(fields.orgUnitId);
  await page.getByLabel('Client', { exact: true }).fill(fields.client);
}

/** From the signed-out screen through the stand-in's hosted login, back to the app signed in. */
export async function signIn(page: Page, email = USER.email, password = USER.password): Promise<void> {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
