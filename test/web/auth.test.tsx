import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json } from './support/fake-backend';
import { renderApp, renderSignedInApp } from './support/render-app';
import { amplifyKeys, CLIENT_ID, KEY_PREFIX, seedMonitoredJob, seedSignedInUser, unsignedJwt } from './support/session';

const TOKEN_ENDPOINT = 'https://localhost:8443';

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  // Amplify warns about the local userPoolEndpoint on every configure.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

/** The browser as signInWithRedirect leaves it, back from the hosted login with ?code&state. */
function seedReturnFromLogin(query: string) {
  localStorage.setItem(`${KEY_PREFIX}.inflightOAuth`, 'true');
  localStorage.setItem(`${KEY_PREFIX}.oauthState`, 'state-1234');
  localStorage.setItem(`${KEY_PREFIX}.oauthPKCE`, 'v'.repeat(128));
  window.history.replaceState(null, '', `/${query}`);
}

function issuedTokens(email: string) {
  const now = Math.floor(Date.now() / 1000);
  return {
    access_token: unsignedJwt({ sub: 's-2', username: 'new-user', token_use: 'access', client_id: CLIENT_ID, iat: now, exp: now + 3600 }),
    id_token: unsignedJwt({ sub: 's-2', 'cognito:username': 'new-user', email, token_use: 'id', aud: CLIENT_ID, iat: now, exp: now + 3600 }),
    refresh_token: 'refresh-1',
    token_type: 'Bearer',
    expires_in: 3600,
  };
}

describe('signed out', () => {
  it('shows the logo and a Sign in button, and nothing of the tool', async () => {
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'CTPO logo' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Brightspace Username')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    expect(screen.queryByText('Sign-in did not complete. Please try again.')).not.toBeInTheDocument();
  });

  it('treats a current-user lookup that fails as signed out', async () => {
    localStorage.setItem(`${KEY_PREFIX}.LastAuthUser`, 'qa-user');
    localStorage.setItem(`${KEY_PREFIX}.qa-user.accessToken`, 'not-a-jwt');
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('treats an expired session whose refresh is refused as signed out', async () => {
    const now = Math.floor(Date.now() / 1000);
    localStorage.setItem(`${KEY_PREFIX}.LastAuthUser`, 'qa-user');
    localStorage.setItem(`${KEY_PREFIX}.qa-user.accessToken`, unsignedJwt({ sub: 's', username: 'qa-user', iat: now - 7200, exp: now - 3600 }));
    localStorage.setItem(`${KEY_PREFIX}.qa-user.idToken`, unsignedJwt({ sub: 's', email: 'a@b.ca', iat: now - 7200, exp: now - 3600 }));
    localStorage.setItem(`${KEY_PREFIX}.qa-user.refreshToken`, 'stale');
    const backend = new FakeBackend()
      .on('POST', '/', () => json({ __type: 'NotAuthorizedException', message: 'Refresh Token has expired' }, 400), TOKEN_ENDPOINT)
      .install();
    renderApp();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    // The refresh went to the configured local endpoint, not to AWS.
    expect(backend.requests.some((request) => request.url.origin === TOKEN_ENDPOINT && request.method === 'POST')).toBe(true);
  });
});

describe('signed in', () => {
  it('greets the user by the e-mail in the id token, with a Sign out button', async () => {
    seedSignedInUser({ email: 'dana.qa@example.ca' });
    new FakeBackend().install();
    await renderSignedInApp();
    expect(screen.getByRole('banner')).toHaveTextContent('Welcome, dana.qa@example.ca');
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it('signs out: tokens and the monitored job are forgotten, and the sign-in screen returns', async () => {
    seedSignedInUser();
    seedMonitoredJob('job-1', 'report-1');
    new FakeBackend().on('GET', '/api/job-status/*', () => json({ status: 'RUNNING' })).install();
    const { user } = await renderSignedInApp();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(amplifyKeys().filter((key) => key.endsWith('accessToken') || key.endsWith('idToken'))).toEqual([]);
    expect(localStorage.getItem('ctpo.monitoredJob')).toBeNull();
  });
});

describe('return from the hosted login', () => {
  it('lets Amplify exchange the code, then shows the signed-in page with a clean address', async () => {
    seedReturnFromLogin('?code=auth-code-1&state=state-1234');
    const backend = new FakeBackend()
      .on('POST', '/oauth2/token', () => json(issuedTokens('new.user@example.ca')), TOKEN_ENDPOINT)
      .install();
    renderApp();

    expect(await screen.findByText('Welcome, new.user@example.ca')).toBeInTheDocument();
    expect(window.location.search).toBe('');
    const [exchange] = backend.requestsTo('/oauth2/token');
    const form = new URLSearchParams(String(exchange?.body));
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'authorization_code',
      code: 'auth-code-1',
      client_id: CLIENT_ID,
      redirect_uri: `${window.location.origin}/`,
      code_verifier: 'v'.repeat(128),
    });
  });

  it('removes code and state after a failed exchange, keeps other parameters, and says sign-in failed', async () => {
    seedReturnFromLogin('?code=used-code&state=state-1234&tab=modules#top');
    new FakeBackend()
      .on('POST', '/oauth2/token', () => json({ error: 'invalid_grant', error_message: 'Code already used' }, 400), TOKEN_ENDPOINT)
      .install();
    renderApp();

    expect(await screen.findByText('Sign-in did not complete. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(window.location.search).toBe('?tab=modules'));
    expect(window.location.hash).toBe('#top');
  });

  it('removes a stale code and state left in the address when no sign-in is in flight', async () => {
    window.history.replaceState(null, '', '/?code=old&state=older');
    seedSignedInUser();
    new FakeBackend().install();
    await renderSignedInApp();
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('reports a login the user cancelled at the hosted login (?error=)', async () => {
    seedReturnFromLogin('?error=access_denied&error_description=User+cancelled&state=state-1234');
    new FakeBackend().install();
    renderApp();
    expect(await screen.findByText('Sign-in did not complete. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('leaves an address without login parameters untouched', async () => {
    window.history.replaceState(null, '', '/?tab=1');
    new FakeBackend().install();
    renderApp();
    await screen.findByRole('button', { name: 'Sign in' });
    expect(window.location.search).toBe('?tab=1');
    expect(screen.queryByText('Sign-in did not complete. Please try again.')).not.toBeInTheDocument();
  });
});
