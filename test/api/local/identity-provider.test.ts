import { createServer } from 'node:https';
import type { Server } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIssuerTokenVerifier } from '../../../api/http/access-token.ts';
import { createIdentityProvider, subjectFor } from '../../../api/local/identity/identity-provider.ts';
import type { IdentityProvider } from '../../../api/local/identity/identity-provider.ts';
import { signJwt } from '../../../api/local/identity/jwt.ts';
import { generateSigningKey, loadOrCreateSigningKey } from '../../../api/local/identity/signing-key.ts';
import { readApiRequest, writeApiResponse } from '../../../api/local/node-http.ts';
import { ensureTlsCertificate } from '../../../api/local/tls-certificate.ts';
import { authorizeQuery, decodeJwtPayload, exchangeCode, httpsClient, pkcePair, postSignInForm, signIn, signInForCode } from './support.ts';
import type { HttpsClient, SignInSetup } from './support.ts';

// Real servers, worker threads and key generation on a machine shared with other test runs.
// Safety nets only: on a busy machine a run here can take many times its usual second or two.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const POOL = 'ca-central-1_Local';
const APP = { clientId: 'ctpo-web', redirectUris: ['https://app.test/', 'http://localhost:5173/'], logoutUris: ['https://app.test/'] };
const OTHER = { clientId: 'other-app', redirectUris: ['https://other.test/'], logoutUris: ['https://other.test/'] };

let dir: string;
let server: Server;
let identity: IdentityProvider;
let client: HttpsClient;
let origin: string;
let ca: string;
let clock = Date.now();
let setup: SignInSetup;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ctpo-identity-'));
  const tls = await ensureTlsCertificate(join(dir, 'tls'), { useMkcert: false });
  ca = tls.cert;
  const signingKey = loadOrCreateSigningKey(join(dir, 'identity-key.pem'));
  let handler: IdentityProvider['handle'] = async () => undefined;
  server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    void readApiRequest(req, res, 64 * 1024).then(async (request) => {
      const response = (await handler(request)) ?? { status: 404, headers: {}, body: 'not here' };
      writeApiResponse(res, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  identity = createIdentityProvider({
    origin,
    poolId: POOL,
    clients: [APP, OTHER],
    users: [{ email: 'qa@example.com', password: 'ctpo-local' }],
    signingKey,
    corsOrigins: ['http://localhost:5173'],
    now: () => clock,
  });
  handler = (request) => identity.handle(request);
  client = httpsClient(ca);
  setup = { client, origin, clientId: APP.clientId, redirectUri: APP.redirectUris[0]!, email: 'qa@example.com', password: 'ctpo-local' };
});

afterAll(async () => {
  await client.close();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('the sign-in page', () => {
  it('shows a form with Email, Password and a Sign in button, carrying the request through', async () => {
    const { challenge } = pkcePair();
    const page = await client.fetch(`${origin}/oauth2/authorize?${authorizeQuery(setup, challenge).toString()}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toMatch(/<label for="email">Email<\/label>/);
    expect(html).toMatch(/<label for="password">Password<\/label>/);
    expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(html).toContain(`value="${challenge}"`);
    expect(html).toContain('value="state-123"');
  });

  it('refuses an unknown client or a redirect_uri outside the allowed list, without redirecting', async () => {
    const { challenge } = pkcePair();
    const unknownClient = await client.fetch(`${origin}/oauth2/authorize?${authorizeQuery({ ...setup, clientId: 'nobody' }, challenge).toString()}`);
    expect(unknownClient.status).toBe(400);
    expect(await unknownClient.text()).toContain('Unknown client_id');
    const evil = await client.fetch(`${origin}/oauth2/authorize?${authorizeQuery({ ...setup, redirectUri: 'https://evil.test/' }, challenge).toString()}`);
    expect(evil.status).toBe(400);
    expect(evil.headers.get('location')).toBeNull();
    expect(await evil.text()).toContain('redirect_uri is not one of the allowed');
  });

  it('sends the user back with an error when PKCE S256 or response_type=code is missing', async () => {
    const query = authorizeQuery(setup, 'short');
    const noPkce = await client.fetch(`${origin}/oauth2/authorize?${query.toString()}`);
    expect(noPkce.status).toBe(302);
    const back = new URL(noPkce.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('https://app.test/');
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('state-123');

    const { challenge } = pkcePair();
    const plain = authorizeQuery(setup, challenge);
    plain.set('code_challenge_method', 'plain');
    expect(new URL((await client.fetch(`${origin}/oauth2/authorize?${plain.toString()}`)).headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const implicit = authorizeQuery(setup, challenge);
    implicit.set('response_type', 'token');
    expect(new URL((await client.fetch(`${origin}/oauth2/authorize?${implicit.toString()}`)).headers.get('location')!).searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('re-shows the form with an error for a wrong password, and issues no code', async () => {
    const { challenge } = pkcePair();
    const answer = await postSignInForm(setup, challenge, 'qa@example.com', 'not-the-password');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('location')).toBeNull();
    const html = await answer.text();
    expect(html).toContain('role="alert">Incorrect email or password.');
    expect(html).toContain('value="qa@example.com"');
    expect(html).not.toContain('not-the-password');
    const unknownUser = await postSignInForm(setup, challenge, 'who@example.com', 'ctpo-local');
    expect(await unknownUser.text()).toContain('Incorrect email or password.');
  });

  it('refuses a sign-in form posted from another origin or a sandboxed frame', async () => {
    const { challenge } = pkcePair();
    const fields = Object.fromEntries(authorizeQuery(setup, challenge));
    for (const from of ['https://evil.test', 'null']) {
      const answer = await client.fetch(`${origin}/oauth2/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: from },
        body: new URLSearchParams({ ...fields, email: 'qa@example.com', password: 'ctpo-local' }).toString(),
      });
      expect(answer.status, from).toBe(403);
      expect(answer.headers.get('location'), from).toBeNull();
    }
  });

  it('accepts the e-mail in any case and redirects to the app with a code and the state', async () => {
    const { challenge } = pkcePair();
    const answer = await postSignInForm(setup, challenge, ' QA@Example.com ', 'ctpo-local');
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location')!);
    expect(back.origin).toBe('https://app.test');
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(back.searchParams.get('state')).toBe('state-123');
  });
});

describe('the token endpoint', () => {
  it('exchanges a code with the right PKCE verifier for Cognito-shaped tokens', async () => {
    const tokens = await signIn(setup);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    const access = decodeJwtPayload(tokens.access_token);
    const id = decodeJwtPayload(tokens.id_token);
    const sub = subjectFor(POOL, 'qa@example.com');
    expect(access).toMatchObject({ iss: `${origin}/${POOL}`, token_use: 'access', client_id: APP.clientId, sub, username: sub, scope: 'openid email profile' });
    expect(id).toMatchObject({ iss: `${origin}/${POOL}`, token_use: 'id', aud: APP.clientId, sub, 'cognito:username': sub, email: 'qa@example.com' });
    for (const claims of [access, id]) {
      expect(typeof claims.iat).toBe('number');
      // 15 minutes, as the deployed user pool's tokens.
      expect(claims.exp).toBe((claims.iat as number) + 900);
    }
    expect(access.origin_jti).toBe(id.origin_jti);
    expect(decodeJwtPayload(tokens.refresh_token)).toMatchObject({ token_use: 'refresh', client_id: APP.clientId, jti: access.origin_jti });
  });

  it('refuses a wrong PKCE verifier, and the code is spent by that attempt', async () => {
    const { code, verifier } = await signInForCode(setup);
    const wrong = await exchangeCode(setup, code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('code_verifier') });
    const retry = await exchangeCode(setup, code, verifier);
    expect(retry.status).toBe(400);
  });

  it('accepts a code once only', async () => {
    const { code, verifier } = await signInForCode(setup);
    expect((await exchangeCode(setup, code, verifier)).status).toBe(200);
    const again = await exchangeCode(setup, code, verifier);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('already used') });
  });

  it('refuses an expired code', async () => {
    const { code, verifier } = await signInForCode(setup);
    clock += 61_000;
    try {
      const late = await exchangeCode(setup, code, verifier);
      expect(late.status).toBe(400);
      expect(await late.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('expired') });
    } finally {
      clock -= 61_000;
    }
  });

  it('refuses a redirect_uri other than the one used to sign in', async () => {
    const { code, verifier } = await signInForCode(setup);
    const answer = await exchangeCode(setup, code, verifier, 'http://localhost:5173/');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('redirect_uri') });
  });

  it('refuses a code redeemed by another client', async () => {
    const { code, verifier } = await signInForCode(setup);
    const answer = await exchangeCode({ ...setup, clientId: OTHER.clientId }, code, verifier);
    expect(answer.status).toBe(400);
  });

  it('refreshes through the refresh_token grant', async () => {
    const tokens = await signIn(setup);
    clock += 5000;
    try {
      const answer = await client.fetch(`${origin}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: APP.clientId, refresh_token: tokens.refresh_token }).toString(),
      });
      expect(answer.status).toBe(200);
      const fresh = (await answer.json()) as { access_token: string; refresh_token?: string };
      expect(fresh.refresh_token).toBeUndefined();
      expect(decodeJwtPayload(fresh.access_token).iat).toBe((decodeJwtPayload(tokens.access_token).iat as number) + 5);
    } finally {
      clock -= 5000;
    }
  });

  it('answers the token endpoint preflight for the dev origin only', async () => {
    const preflight = (requestOrigin: string) =>
      client.fetch(`${origin}/oauth2/token`, {
        method: 'OPTIONS',
        headers: { origin: requestOrigin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-amz-user-agent' },
      });
    const dev = await preflight('http://localhost:5173');
    expect(dev.status).toBe(204);
    expect(dev.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(dev.headers.get('access-control-allow-headers')).toBe('content-type,x-amz-user-agent');
    const evil = await preflight('https://evil.test');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the Cognito API at userPoolEndpoint', () => {
  const cognito = (target: string, body: unknown, extra: Record<string, string> = {}) =>
    client.fetch(`${origin}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}`, ...extra },
      body: JSON.stringify(body),
    });

  it('refreshes with GetTokensFromRefreshToken as Amplify 6.22 calls it', async () => {
    const tokens = await signIn(setup);
    const answer = await cognito('GetTokensFromRefreshToken', { ClientId: APP.clientId, RefreshToken: tokens.refresh_token }, { origin: 'http://localhost:5173' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-amz-json-1.1');
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const { AuthenticationResult } = (await answer.json()) as { AuthenticationResult: { AccessToken: string; IdToken: string; ExpiresIn: number; TokenType: string } };
    expect(AuthenticationResult).toMatchObject({ ExpiresIn: 900, TokenType: 'Bearer' });
    expect(decodeJwtPayload(AuthenticationResult.AccessToken)).toMatchObject({ token_use: 'access', client_id: APP.clientId });
    expect(decodeJwtPayload(AuthenticationResult.IdToken)).toMatchObject({ email: 'qa@example.com' });
  });

  it('refreshes with InitiateAuth REFRESH_TOKEN_AUTH, as older Amplify versions do', async () => {
    const tokens = await signIn(setup);
    const answer = await cognito('InitiateAuth', { ClientId: APP.clientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: tokens.refresh_token } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ AuthenticationResult: { TokenType: 'Bearer' }, ChallengeParameters: {} });
  });

  it('refuses a refresh after RevokeToken, a forged or another client refresh token, and an expired one', async () => {
    const tokens = await signIn(setup);
    const forged = signJwt(decodeJwtPayload(tokens.refresh_token), generateSigningKey());
    const bad = await cognito('GetTokensFromRefreshToken', { ClientId: APP.clientId, RefreshToken: forged });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-amzn-errortype')).toBe('NotAuthorizedException');
    expect(await bad.json()).toMatchObject({ __type: 'NotAuthorizedException' });
    expect((await cognito('GetTokensFromRefreshToken', { ClientId: OTHER.clientId, RefreshToken: tokens.refresh_token })).status).toBe(400);

    clock += 31 * 24 * 3600 * 1000;
    try {
      const expired = await cognito('GetTokensFromRefreshToken', { ClientId: APP.clientId, RefreshToken: tokens.refresh_token });
      expect(await expired.json()).toMatchObject({ message: 'Refresh Token has expired' });
    } finally {
      clock -= 31 * 24 * 3600 * 1000;
    }

    expect((await cognito('RevokeToken', { ClientId: APP.clientId, Token: tokens.refresh_token })).status).toBe(200);
    const revoked = await cognito('GetTokensFromRefreshToken', { ClientId: APP.clientId, RefreshToken: tokens.refresh_token });
    expect(revoked.status).toBe(400);
    expect(await revoked.json()).toMatchObject({ __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
  });

  it('answers a clear error for an operation it does not serve and for a non-JSON body', async () => {
    const unknown = await cognito('GetUser', { AccessToken: 'x' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ __type: 'UnsupportedOperationException' });
    const garbage = await client.fetch(`${origin}/`, { method: 'POST', headers: { 'x-amz-target': 'AWSCognitoIdentityProviderService.RevokeToken' }, body: 'not json' });
    expect(garbage.status).toBe(400);
  });
});

describe('sign-out', () => {
  it('returns to an allowed logout_uri, and refuses any other', async () => {
    const ok = await client.fetch(`${origin}/logout?client_id=${APP.clientId}&logout_uri=${encodeURIComponent('https://app.test/')}`);
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('https://app.test/');
    const evil = await client.fetch(`${origin}/logout?client_id=${APP.clientId}&logout_uri=${encodeURIComponent('https://evil.test/')}`);
    expect(evil.status).toBe(400);
    expect(evil.headers.get('location')).toBeNull();
    const otherClientsUri = await client.fetch(`${origin}/logout?client_id=${APP.clientId}&logout_uri=${encodeURIComponent('https://other.test/')}`);
    expect(otherClientsUri.status).toBe(400);
  });
});

describe('the JWKS', () => {
  it('verifies the stand-in tokens with aws-jwt-verify, fetched over HTTPS', async () => {
    const tokens = await signIn(setup);
    const jwks = await (await client.fetch(`${origin}/${POOL}/.well-known/jwks.json`)).json();
    expect(jwks).toEqual(identity.jwks);
    const verifier = createIssuerTokenVerifier({ issuer: identity.issuer, jwksUri: identity.jwksUri, clientId: APP.clientId, ca });
    await expect(verifier.verify(tokens.access_token)).resolves.toEqual({
      sub: subjectFor(POOL, 'qa@example.com'),
      username: subjectFor(POOL, 'qa@example.com'),
      // When the token expires: report links it asks for expire no later.
      expiresAt: new Date(JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString('utf8')).exp * 1000),
    });
    await expect(verifier.verify(tokens.id_token)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('keeps the signing key across restarts, so earlier tokens still verify', () => {
    const first = loadOrCreateSigningKey(join(dir, 'identity-key.pem'));
    const second = loadOrCreateSigningKey(join(dir, 'identity-key.pem'));
    expect(second.kid).toBe(first.kid);
    expect(identity.jwks.keys[0]!.kid).toBe(first.kid);
  });
});
