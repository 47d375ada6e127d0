// The identity stand-in's own limits, through its request handler: failed sign-ins are limited per
// account and overall, and a revoked refresh token stays revoked after a restart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../../../api/http/types.ts';
import { createIdentityProvider } from '../../../api/local/identity/identity-provider.ts';
import type { IdentityProvider, IdentityProviderOptions } from '../../../api/local/identity/identity-provider.ts';
import { generateSigningKey } from '../../../api/local/identity/signing-key.ts';
import type { SigningKey } from '../../../api/local/identity/signing-key.ts';
import { pkcePair } from './support.ts';

const ORIGIN = 'https://localhost:8443';
const APP = { clientId: 'ctpo-web', redirectUris: ['https://app.test/'], logoutUris: ['https://app.test/'] };
const USERS = [{ email: 'qa@example.com', password: 'ctpo-local' }, { email: 'lead@example.com', password: 'lead-pass' }];

let dir: string;
let key: SigningKey;
let clock: number;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ctpo-identity-limits-'));
  key = generateSigningKey();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function provider(extra: Partial<IdentityProviderOptions> = {}): IdentityProvider {
  return createIdentityProvider({ origin: ORIGIN, poolId: 'ca-central-1_Local', clients: [APP], users: USERS, signingKey: key, corsOrigins: [], now: () => clock, ...extra });
}

async function call(identity: IdentityProvider, request: Partial<ApiRequest>): Promise<ApiResponse> {
  const answer = await identity.handle({ method: 'GET', path: '/', headers: {}, ...request });
  if (answer === undefined) throw new Error('not an identity route');
  return answer;
}

function signInForm(identity: IdentityProvider, email: string, password: string, challenge = pkcePair().challenge): Promise<ApiResponse> {
  const body = new URLSearchParams({
    client_id: APP.clientId,
    redirect_uri: APP.redirectUris[0]!,
    response_type: 'code',
    scope: 'openid email profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    email,
    password,
  }).toString();
  return call(identity, { method: 'POST', path: '/oauth2/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN }, body });
}

async function refreshTokenOf(identity: IdentityProvider): Promise<string> {
  const { verifier, challenge } = pkcePair();
  const signedIn = await signInForm(identity, 'qa@example.com', 'ctpo-local', challenge);
  const code = new URL(signedIn.headers.location!).searchParams.get('code')!;
  const body = new URLSearchParams({ grant_type: 'authorization_code', code, client_id: APP.clientId, redirect_uri: APP.redirectUris[0]!, code_verifier: verifier }).toString();
  const tokens = await call(identity, { method: 'POST', path: '/oauth2/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return (JSON.parse(tokens.body) as { refresh_token: string }).refresh_token;
}

function cognito(identity: IdentityProvider, operation: string, input: object): Promise<ApiResponse> {
  return call(identity, {
    method: 'POST',
    path: '/',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${operation}` },
    body: JSON.stringify(input),
  });
}

describe('failed sign-ins', () => {
  it('lock an account for a while after 5 in 15 minutes, even against the right password, and no other account', async () => {
    clock = Date.parse('2026-05-01T10:00:00Z');
    const identity = provider();
    for (let attempt = 0; attempt < 5; attempt++) expect((await signInForm(identity, 'qa@example.com', `guess-${attempt}`)).status).toBe(200);
    const locked = await signInForm(identity, 'QA@example.com', 'ctpo-local');
    expect(locked.status).toBe(429);
    expect(locked.body).toContain('role="alert">Too many failed sign-ins. Wait 15 minutes, then try again.');
    expect(locked.headers['retry-after']).toBe('900');
    expect(locked.headers.location).toBeUndefined();
    expect((await signInForm(identity, 'lead@example.com', 'lead-pass')).status).toBe(302);

    clock += 10 * 60_000;
    expect((await signInForm(identity, 'qa@example.com', 'ctpo-local')).body).toContain('Wait 5 minutes');
    clock += 5 * 60_000 + 1;
    expect((await signInForm(identity, 'qa@example.com', 'ctpo-local')).status).toBe(302);
  });

  it('are limited overall too, so many accounts cannot be tried at once', async () => {
    clock = Date.parse('2026-05-01T12:00:00Z');
    const identity = provider();
    for (let attempt = 0; attempt < 30; attempt++) await signInForm(identity, `user-${attempt}@example.com`, 'password');
    expect((await signInForm(identity, 'qa@example.com', 'ctpo-local')).status).toBe(429);
    clock += 60_001;
    expect((await signInForm(identity, 'qa@example.com', 'ctpo-local')).status).toBe(302);
  });
});

describe('a revoked refresh token', () => {
  it('stays revoked when the stand-in starts again with the same revocations file', async () => {
    clock = Date.parse('2026-05-01T14:00:00Z');
    const revocationsPath = join(dir, 'revocations.json');
    const first = provider({ revocationsPath });
    const token = await refreshTokenOf(first);
    const kept = await refreshTokenOf(first);
    expect((await cognito(first, 'RevokeToken', { ClientId: APP.clientId, Token: token })).status).toBe(200);

    const restarted = provider({ revocationsPath });
    const refused = await cognito(restarted, 'GetTokensFromRefreshToken', { ClientId: APP.clientId, RefreshToken: token });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
    expect((await cognito(restarted, 'GetTokensFromRefreshToken', { ClientId: APP.clientId, RefreshToken: kept })).status).toBe(200);
  });

  it('refuses to start on a damaged revocations file rather than forget what it held', async () => {
    const damaged = join(dir, 'damaged.json');
    writeFileSync(damaged, '{"abc": 17');
    expect(() => provider({ revocationsPath: damaged })).toThrow(/cannot be read; remove it to sign everyone out/);
  });
});
