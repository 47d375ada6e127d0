// The hosted login is another site: only a real browser can follow the redirect, so here the SDK
// boundary (aws-amplify/auth's signInWithRedirect) is replaced to see what the app asks of it.
import { screen, waitFor } from '@testing-library/react';
import { signInWithRedirect } from 'aws-amplify/auth';
import type * as AmplifyAuth from 'aws-amplify/auth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend } from './support/fake-backend';
import { renderApp } from './support/render-app';

vi.mock('aws-amplify/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AmplifyAuth>()),
  signInWithRedirect: vi.fn(),
}));

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.mocked(signInWithRedirect).mockReset();
});
afterEach(() => {
  localStorage.clear();
});

describe('Sign in button', () => {
  it('redirects to the hosted login of the configured pool, once per click', async () => {
    vi.mocked(signInWithRedirect).mockResolvedValue(undefined);
    new FakeBackend().install();
    const { user } = renderApp();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(signInWithRedirect).toHaveBeenCalledTimes(1);
    // No provider and no custom scopes: the configured Cognito hosted login, openid email profile.
    expect(signInWithRedirect).toHaveBeenCalledWith();
  });

  it('says so when the redirect cannot start, and lets the user try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.mocked(signInWithRedirect).mockRejectedValueOnce(new Error('invalidOriginException')).mockResolvedValueOnce(undefined);
    new FakeBackend().install();
    const { user } = renderApp();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in did not complete. Please try again.');

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(signInWithRedirect).toHaveBeenCalledTimes(2);
  });
});
