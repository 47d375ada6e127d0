// The language the app speaks: which one it picks at start, the menu in the header, the choice
// remembered across visits, right-to-left layout, and catalogues loaded only when shown.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ar from '@/locales/ar.json';
import de from '@/locales/de.json';
import en from '@/locales/en.json';
import frCA from '@/locales/fr-CA.json';
import ja from '@/locales/ja.json';
import ko from '@/locales/ko.json';
import { SUPPORTED_LOCALES } from '@/lib/i18n/locale';
import { FakeBackend, json, TEST_CONFIG } from './support/fake-backend';
import { renderApp } from './support/render-app';
import { seedSignedInUser } from './support/session';

function browserLanguages(...languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
}

function documentLanguage(tag: string) {
  document.documentElement.setAttribute('lang', tag);
}

/** Renders the signed-in page and waits for its heading in the given catalogue's language. */
async function renderSignedInPage(catalogue: { 'app.title': string; 'auth.signOut': string }) {
  seedSignedInUser();
  const rendered = renderApp();
  await screen.findByRole('heading', { level: 1, name: catalogue['app.title'] });
  await screen.findByRole('button', { name: catalogue['auth.signOut'] });
  return rendered;
}

const MESSAGE_IDS = new RegExp(Object.keys(en).map((id) => id.replaceAll('.', '\\.')).join('|'));

beforeEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('dir');
});
afterEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('dir');
});

describe('which language the app picks', () => {
  it('speaks US English when nothing asks for another language', async () => {
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'en-US');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(document.title).toBe('CTPO: Course Testing Protocol Observer');
  });

  it('follows the browser languages when the page declares none, the first one it has', async () => {
    browserLanguages('xx-XX', 'ja-JP', 'fr-CA');
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByRole('button', { name: ja['auth.signIn'] })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'ja');
    expect(document.title).toBe(ja['app.title']);
  });

  it('puts the document language first, ahead of the browser languages', async () => {
    documentLanguage('fr-CA');
    browserLanguages('ja-JP');
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByRole('button', { name: frCA['auth.signIn'] })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'fr-CA');
  });

  it('uses the configured fallback language when neither the document nor the browser has one it knows', async () => {
    browserLanguages('xx-XX', 'yy');
    new FakeBackend({ ...TEST_CONFIG, i18n: { defaultLanguage: 'de-DE' } }).install();
    renderApp();
    expect(await screen.findByRole('button', { name: de['auth.signIn'] })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'de');
  });

  it('keeps the configured fallback behind a language the browser asks for', async () => {
    browserLanguages('ja');
    new FakeBackend({ ...TEST_CONFIG, i18n: { defaultLanguage: 'de' } }).install();
    renderApp();
    expect(await screen.findByRole('button', { name: ja['auth.signIn'] })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: de['auth.signIn'] })).not.toBeInTheDocument();
  });

  it('ends with English when no hint names a language it has', async () => {
    documentLanguage('xx');
    browserLanguages('yy-YY');
    new FakeBackend({ ...TEST_CONFIG, i18n: { defaultLanguage: 'zz' } }).install();
    renderApp();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'en-US');
  });

  it('lets the remembered menu choice win over the document, the browser and the configured fallback', async () => {
    localStorage.setItem('ctpo.language', 'ko');
    documentLanguage('fr-CA');
    browserLanguages('ja');
    new FakeBackend({ ...TEST_CONFIG, i18n: { defaultLanguage: 'de' } }).install();
    renderApp();
    expect(await screen.findByRole('button', { name: ko['auth.signIn'] })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'ko');
  });

  it('ignores a remembered value that is not one of its languages', async () => {
    localStorage.setItem('ctpo.language', 'klingon');
    browserLanguages('ja');
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByRole('button', { name: ja['auth.signIn'] })).toBeInTheDocument();
  });
});

describe('loading a language', () => {
  it('shows nothing rather than message ids while the catalogue loads, then the page in that language', async () => {
    localStorage.setItem('ctpo.language', 'ja');
    new FakeBackend().install();
    const { container } = renderApp();
    expect(container.textContent).toBe('');
    expect(await screen.findByRole('button', { name: ja['auth.signIn'] })).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(MESSAGE_IDS);
  });
});

describe('the language menu', () => {
  it('sits in the header, labelled "Language", listing the 23 languages each named in itself', async () => {
    new FakeBackend().install();
    await renderSignedInPage(en);
    const banner = screen.getByRole('banner');
    const menu = within(banner).getByRole('combobox', { name: 'Language' });
    const options = within(menu).getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((option) => option.value)).toEqual([...SUPPORTED_LOCALES]);
    expect(options.map((option) => option.textContent)).toEqual(
      expect.arrayContaining(['العربية', 'English (United States)', 'Français (Canada)', 'Français (Ontario)', '日本語', 'Deutsch']),
    );
    expect(options.find((option) => option.value === 'ar')).toHaveAttribute('lang', 'ar');
    expect(options.find((option) => option.value === 'fr-ON')).toHaveAttribute('lang', 'fr-CA');
    expect(menu).toHaveValue('en');
  });

  it('switches the whole page to the chosen language, and remembers the choice', async () => {
    new FakeBackend().install();
    const { user } = await renderSignedInPage(en);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Français (Canada)');

    expect(await screen.findByRole('heading', { level: 1, name: frCA['app.title'] })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: frCA['auth.signOut'] })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: frCA['language.label'] })).toHaveValue('fr-CA');
    expect(screen.getByLabelText(frCA['form.username.label'])).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'fr-CA');
    expect(document.title).toBe(frCA['app.title']);
    expect(localStorage.getItem('ctpo.language')).toBe('fr-CA');
  });

  it('asks the server for its answers in the chosen language: LANGUAGE in the bodies, Accept-Language on every call', async () => {
    const backend = new FakeBackend()
      .on('POST', '/api/toc', () => json({ Modules: [{ ModuleId: 1, Title: 'Semaine 1', Modules: [] }] }))
      .on('POST', '/api/run-tests', () => json({ message: 'Lancé.', taskArn: 'job-fr', filename: 'f' }, 202))
      .on('GET', '/api/job-status/*', () => json({ status: 'RUNNING' }))
      .install();
    const { user } = await renderSignedInPage(en);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Français (Canada)');
    await screen.findByRole('heading', { level: 1, name: frCA['app.title'] });
    await user.type(screen.getByLabelText(frCA['form.username.label']), 'qa');
    await user.type(screen.getByLabelText(frCA['form.password.label']), 'pw');
    await user.type(screen.getByLabelText(frCA['form.siteUrl.label']), 'https://school.brightspace.com');
    await user.type(screen.getByLabelText(frCA['form.orgUnitId.label']), '6606');
    await user.type(screen.getByLabelText(frCA['form.client.label'], { exact: true }), 'Acme');
    await user.click(screen.getByRole('button', { name: frCA['form.chooseModules'] }));
    await user.click(await screen.findByRole('button', { name: frCA['modules.run'] }));
    await waitFor(() => expect(backend.requestsTo('/api/job-status/*').length).toBeGreaterThan(0));

    expect(backend.requestsTo('/api/toc')[0]?.body).toMatchObject({ LANGUAGE: 'fr-CA' });
    expect(backend.requestsTo('/api/run-tests')[0]?.body).toMatchObject({ LANGUAGE: 'fr-CA' });
    for (const request of [...backend.requestsTo('/api/toc'), ...backend.requestsTo('/api/run-tests'), ...backend.requestsTo('/api/job-status/*')]) {
      expect(request.headers.get('Accept-Language'), request.url.pathname).toBe('fr-CA');
    }
  });

  it('is on the sign-in screen too, so the hosted login is reached in the chosen language', async () => {
    new FakeBackend().install();
    const { user } = renderApp();
    await screen.findByRole('button', { name: 'Sign in' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'ja');

    expect(await screen.findByRole('button', { name: ja['auth.signIn'] })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: ja['app.title'] })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'ja');
    expect(localStorage.getItem('ctpo.language')).toBe('ja');
  });

  it('brings the chosen language back on the next visit, over the browser language', async () => {
    new FakeBackend().install();
    const first = await renderSignedInPage(en);
    await first.user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');
    await screen.findByRole('heading', { level: 1, name: de['app.title'] });
    first.unmount();

    browserLanguages('ja');
    await renderSignedInPage(de);
    expect(screen.getByRole('combobox', { name: de['language.label'] })).toHaveValue('de');
  });

  it('lays the page out right to left in Arabic, and back left to right in English', async () => {
    new FakeBackend().install();
    const { user } = await renderSignedInPage(en);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'ar');

    expect(await screen.findByRole('heading', { level: 1, name: ar['app.title'] })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');

    await user.selectOptions(screen.getByRole('combobox', { name: ar['language.label'] }), 'en');
    expect(await screen.findByRole('heading', { level: 1, name: en['app.title'] })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(document.documentElement).toHaveAttribute('lang', 'en-US');
  });

  it('puts back the document language and direction it found when the app goes away', async () => {
    documentLanguage('xx');
    new FakeBackend().install();
    const { unmount } = renderApp();
    await screen.findByRole('button', { name: 'Sign in' });
    expect(document.documentElement).toHaveAttribute('lang', 'en-US');
    unmount();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('lang', 'xx'));
    expect(document.documentElement).not.toHaveAttribute('dir');
  });
});
