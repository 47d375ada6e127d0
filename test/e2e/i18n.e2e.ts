// The app in other languages, in Chromium against the local stack: French, Arabic and Japanese
// chosen in the header's language menu (remembered across a reload), Japanese from the browser's
// locale, and French from a page that declares its language. Arabic is laid out right to left.
// Only the shown languages' catalogues are downloaded. Screenshots under test-results/e2e/i18n/.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, CHROMIUM, startE2eEnvironment, USER } from './support/e2e-environment.ts';
import type { E2eEnvironment } from './support/e2e-environment.ts';

type Catalogue = Record<string, string>;

function catalogue(tag: string): Catalogue {
  return JSON.parse(readFileSync(new URL(`../../web/src/locales/${tag}.json`, import.meta.url), 'utf8')) as Catalogue;
}

/** A message as Playwright's name and text matching sees it: French no-break spaces as spaces. */
function text(messages: Catalogue, id: string): string {
  const message = messages[id];
  if (message === undefined) throw new Error(`No message ${id}`);
  return message.replace(/\s+/gu, ' ');
}

const en = catalogue('en');
const frCA = catalogue('fr-CA');
const frFR = catalogue('fr-FR');
const ar = catalogue('ar');
const ja = catalogue('ja');

const LOCALE_TAGS = ['es-419', 'en-CA', 'en-GB', 'es-ES', 'fr-CA', 'fr-FR', 'fr-ON', 'pt-BR', 'zh-CN', 'zh-TW', 'haw', 'ar', 'cy', 'da', 'de', 'hi', 'ja', 'ko', 'mi', 'nl', 'sv', 'tr'];
const LOCALE_CHUNK = new RegExp(`/assets/(${LOCALE_TAGS.join('|')})-[A-Za-z0-9_-]{8}\\.js$`);

let env: E2eEnvironment;
let browser: Browser | undefined;

/** Records which language catalogues the page downloads. */
function watchCatalogues(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const match = LOCALE_CHUNK.exec(new URL(request.url()).pathname);
    if (match?.[1]) fetched.push(match[1]);
  });
  return fetched;
}

/** Signs in from the app's signed-out screen, whatever language it shows. */
async function signIn(page: Page, signInLabel: string): Promise<void> {
  await page.getByRole('button', { name: signInLabel }).click();
  await page.getByLabel('Email', { exact: true }).fill(USER.email);
  await page.getByLabel('Password', { exact: true }).fill(USER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectMainPageIn(page: Page, messages: Catalogue, lang: string, dir: 'ltr' | 'rtl'): Promise<void> {
  await page.getByRole('heading', { level: 1, name: text(messages, 'app.title') }).waitFor();
  await page.getByRole('button', { name: text(messages, 'auth.signOut') }).waitFor();
  await page.getByRole('button', { name: text(messages, 'form.chooseModules') }).waitFor();
  expect(await page.getByText(text(messages, 'form.chooseModules.hint')).isVisible()).toBe(true);
  expect(await page.getByLabel(text(messages, 'form.username.label')).isVisible()).toBe(true);
  expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir, getComputedStyle(document.body).direction])).toEqual([lang, dir, dir]);
  expect(await page.title()).toBe(messages['app.title']);
}

async function newBrowserPage(options: { locale?: string }): Promise<Page> {
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Without the sandbox: this browser plays the user's and opens only CTPO's own app and reports
    // (no course page runs in it: those run in the engine's sandboxed browser), and it saves the
    // downloads the tests read into a folder of this root process, which Chromium's sandboxed user could not write.
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 900 }, ...options });
  return context.newPage();
}

beforeAll(async () => {
  env = await startE2eEnvironment('i18n');
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

describe('the app in other languages', () => {
  it('switches to French, Arabic and Japanese from the menu, remembers the choice, and loads only those catalogues', async () => {
    const { page, shot } = env;
    const fetched = watchCatalogues(page);

    await page.goto(`${env.stack.origin}/`);
    await signIn(page, text(en, 'auth.signIn'));
    await expectMainPageIn(page, en, 'en-US', 'ltr');
    expect(fetched).toEqual([]);
    const menu = page.getByRole('banner').getByRole('combobox', { name: 'Language' });
    expect(await menu.locator('option').count()).toBe(23);

    await menu.selectOption('fr-CA');
    await expectMainPageIn(page, frCA, 'fr-CA', 'ltr');
    await shot(page, 'menu-fr-CA');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('combobox', { name: text(frCA, 'language.label') }).selectOption('ar');
    await expectMainPageIn(page, ar, 'ar', 'rtl');
    // Mirrored: the header starts at the right, the logo there and the sign-out button to its left.
    const logo = await page.getByRole('banner').getByRole('img').boundingBox();
    const signOut = await page.getByRole('button', { name: text(ar, 'auth.signOut') }).boundingBox();
    if (!logo || !signOut) throw new Error('The header is not laid out.');
    expect(logo.x).toBeGreaterThan(signOut.x);
    // A field's label text sits at the right edge of its input, not the left.
    const field = await page.getByLabel(text(ar, 'form.username.label')).evaluate((input) => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector(`label[for="${input.id}"]`) ?? input);
      const text = range.getBoundingClientRect();
      const box = input.getBoundingClientRect();
      return { textLeft: text.left, textRight: text.right, inputLeft: box.left, inputRight: box.right };
    });
    expect(Math.abs(field.textRight - field.inputRight)).toBeLessThan(4);
    expect(field.textLeft - field.inputLeft).toBeGreaterThan(40);
    await shot(page, 'menu-ar-rtl');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('combobox', { name: text(ar, 'language.label') }).selectOption('ja');
    await expectMainPageIn(page, ja, 'ja', 'ltr');
    await shot(page, 'menu-ja');
    expect(await axeViolations(page)).toEqual([]);

    await page.reload();
    await expectMainPageIn(page, ja, 'ja', 'ltr');
    expect(await page.evaluate(() => localStorage.getItem('ctpo.language'))).toBe('ja');
    expect([...new Set(fetched)]).toEqual(['fr-CA', 'ar', 'ja']);
  });

  it('speaks Japanese to a browser set to Japanese, from the sign-in screen on', async () => {
    const page = await newBrowserPage({ locale: 'ja-JP' });
    const fetched = watchCatalogues(page);
    await page.goto(`${env.stack.origin}/`);
    await page.getByRole('button', { name: text(ja, 'auth.signIn') }).waitFor();
    expect(await page.getByRole('heading', { level: 1, name: text(ja, 'app.title') }).isVisible()).toBe(true);
    await env.shot(page, 'browser-ja-signed-out');

    await signIn(page, text(ja, 'auth.signIn'));
    await expectMainPageIn(page, ja, 'ja', 'ltr');
    expect(await page.getByRole('combobox', { name: text(ja, 'language.label') }).inputValue()).toBe('ja');
    await env.shot(page, 'browser-ja');
    expect([...new Set(fetched)]).toEqual(['ja']);
    await page.context().close();
  });

  it('speaks the language a page declares (lang="fr-FR"), ahead of the browser’s', async () => {
    const page = await newBrowserPage({ locale: 'ja-JP' });
    // As a host that serves the app in the reader's language would: the same page, with a lang
    // (the app's page, also on the return from the hosted login; not the login pages themselves).
    const appPage = (url: URL) => url.origin === env.stack.origin && url.pathname === '/';
    await page.route(appPage, async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const html = (await response.text()).replace('<html>', '<html lang="fr-FR">');
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${env.stack.origin}/`);
    await page.getByRole('button', { name: text(frFR, 'auth.signIn') }).waitFor();
    expect(await page.getByRole('heading', { level: 1, name: text(frFR, 'app.title') }).isVisible()).toBe(true);
    await env.shot(page, 'document-fr-FR-signed-out');
    await signIn(page, text(frFR, 'auth.signIn'));
    // The hosted login answers with a redirect, which Playwright's routing does not see: the page
    // comes back without the lang, in the browser's Japanese. Opened again, it is the host's page.
    await page.getByRole('button', { name: text(ja, 'auth.signOut') }).waitFor();
    await page.goto(`${env.stack.origin}/`);
    await expectMainPageIn(page, frFR, 'fr-FR', 'ltr');
    await env.shot(page, 'document-fr-FR');
    await page.context().close();
  });
});
