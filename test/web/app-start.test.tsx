import { screen, within } from '@testing-library/react';
import { Amplify } from 'aws-amplify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json, TEST_CONFIG } from './support/fake-backend';
import { renderApp } from './support/render-app';

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  localStorage.clear();
});

async function problemsShown(): Promise<string[]> {
  await screen.findByRole('heading', { level: 1, name: 'CTPO cannot start' });
  const list = screen.getByRole('list');
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

describe('start-up', () => {
  it('fetches /config.json bypassing caches, then sets up the hosted login from it', async () => {
    const backend = new FakeBackend().install();
    renderApp();
    await screen.findByRole('button', { name: 'Sign in' });

    const [configRequest] = backend.requestsTo('/config.json');
    expect(configRequest?.cache).toBe('no-store');
    expect(configRequest?.url.href).toBe(`${window.location.origin}/config.json`);
    expect(Amplify.getConfig().Auth?.Cognito).toMatchObject({
      userPoolId: TEST_CONFIG.userPoolId,
      userPoolClientId: TEST_CONFIG.userPoolClientId,
      userPoolEndpoint: TEST_CONFIG.userPoolEndpoint,
      loginWith: {
        oauth: {
          domain: 'localhost:8443',
          scopes: ['openid', 'email', 'profile'],
          responseType: 'code',
          // jsdom's page is on localhost: the redirect rule keeps sign-in on this origin.
          redirectSignIn: [`${window.location.origin}/`],
          redirectSignOut: [`${window.location.origin}/`],
        },
      },
    });
  });

  it('renders the same page on any path (one catch-all route)', async () => {
    window.history.replaceState(null, '', '/some/deep/path?tab=2');
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    window.history.replaceState(null, '', '/');
  });

  it('shows an error page, not a blank one, when config.json is missing', async () => {
    new FakeBackend().on('GET', '/config.json', () => new Response('Not found', { status: 404 })).install();
    renderApp();
    expect(await problemsShown()).toEqual(['/config.json answered with HTTP status 404.']);
    expect(screen.getByText(/Ask whoever deployed CTPO to fix it/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it('shows an error page when config.json is not JSON', async () => {
    new FakeBackend().on('GET', '/config.json', () => new Response('<html>', { status: 200 })).install();
    renderApp();
    expect(await problemsShown()).toEqual(['/config.json is not valid JSON.']);
  });

  it('shows an error page when config.json cannot be fetched', async () => {
    // The failure is logged for whoever deployed the app: expected here, so asserted, not printed.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    new FakeBackend()
      .on('GET', '/config.json', () => {
        throw new TypeError('Failed to fetch');
      })
      .install();
    renderApp();
    expect(await problemsShown()).toEqual(['/config.json could not be fetched.']);
    expect(logged).toHaveBeenCalledWith('CTPO: /config.json could not be fetched', expect.any(TypeError));
  });

  it('lists each invalid field, and does not configure sign-in', async () => {
    const configuredBefore = Amplify.getConfig();
    new FakeBackend({ ...TEST_CONFIG, userPoolId: 'Local', apiUrl: undefined, pollIntervalMs: 5 }).install();
    renderApp();
    expect(await problemsShown()).toEqual([
      'userPoolId must look like ca-central-1_AbCdEf123.',
      'apiUrl is missing.',
      'pollIntervalMs must be a whole number of milliseconds, at least 1000.',
    ]);
    expect(Amplify.getConfig()).toBe(configuredBefore);
  });

  it('describes every kind of field problem in words', async () => {
    new FakeBackend({
      ...TEST_CONFIG,
      region: 5,
      siteUrl: 'nope',
      oauthDomain: 'https://x',
      localHosts: 'x',
      i18n: [],
    }).install();
    renderApp();
    expect(await problemsShown()).toEqual([
      'region must be a non-empty text.',
      'oauthDomain must be a host name without https://, such as example.auth.ca-central-1.amazoncognito.com.',
      'siteUrl must be an http or https address.',
      'localHosts must be a list of host names.',
      'i18n must be an object.',
    ]);
  });

  it('rejects a config.json that is not an object', async () => {
    new FakeBackend().on('GET', '/config.json', () => json(['a'])).install();
    renderApp();
    expect(await problemsShown()).toEqual(['/config.json must hold a JSON object.']);
  });
});
