import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend } from './support/fake-backend';
import { renderApp } from './support/render-app';
import { KEY_PREFIX } from './support/session';

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  localStorage.clear();
});

describe('Sign in', () => {
  it('starts Amplify’s code + PKCE redirect flow', async () => {
    // jsdom cannot navigate to the hosted login; it reports that instead of leaving the page.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    new FakeBackend().install();
    const { user } = renderApp();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(localStorage.getItem(`${KEY_PREFIX}.inflightOAuth`)).toBe('true'));
    // A 128-character PKCE verifier and a state to check on return: code flow with PKCE.
    expect(localStorage.getItem(`${KEY_PREFIX}.oauthPKCE`)).toMatch(/^[A-Za-z0-9]{128}$/);
    expect(localStorage.getItem(`${KEY_PREFIX}.oauthState`)).toMatch(/^[A-Za-z0-9]{32}$/);
  });
});
