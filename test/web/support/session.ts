// Signs a user in the way Amplify itself would leave the browser after the hosted login: tokens in
// localStorage under CognitoIdentityServiceProvider.<clientId>.*. Amplify only decodes them.
import { TEST_CONFIG } from './fake-backend';

export const CLIENT_ID = TEST_CONFIG.userPoolClientId;
export const KEY_PREFIX = `CognitoIdentityServiceProvider.${CLIENT_ID}`;

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** A JWT with a fake signature: Amplify on the client never checks signatures. */
export function unsignedJwt(payload: Record<string, unknown>): string {
  return `${base64url({ alg: 'RS256', kid: 'test', typ: 'JWT' })}.${base64url(payload)}.c2lnbmF0dXJl`;
}

export interface SeededSession {
  accessToken: string;
  idToken: string;
}

export const DEFAULT_EMAIL = 'qa.user@example.ca';

export function seedSignedInUser({ email = DEFAULT_EMAIL, username = 'qa-user' } = {}): SeededSession {
  const now = Math.floor(Date.now() / 1000);
  const accessToken = unsignedJwt({
    sub: 'user-sub-1',
    username,
    token_use: 'access',
    client_id: CLIENT_ID,
    scope: 'openid email profile',
    iat: now,
    exp: now + 3600,
  });
  const idToken = unsignedJwt({
    sub: 'user-sub-1',
    'cognito:username': username,
    email,
    token_use: 'id',
    aud: CLIENT_ID,
    iat: now,
    exp: now + 3600,
  });
  localStorage.setItem(`${KEY_PREFIX}.LastAuthUser`, username);
  localStorage.setItem(`${KEY_PREFIX}.${username}.accessToken`, accessToken);
  localStorage.setItem(`${KEY_PREFIX}.${username}.idToken`, idToken);
  localStorage.setItem(`${KEY_PREFIX}.${username}.clockDrift`, '0');
  return { accessToken, idToken };
}

export function amplifyKeys(): string[] {
  return Object.keys(localStorage).filter((key) => key.startsWith(KEY_PREFIX));
}

/** A job left in the browser by an earlier page of the same user (or of `owner`). */
export function seedMonitoredJob(taskArn: string, filename: string, owner = DEFAULT_EMAIL): void {
  localStorage.setItem('ctpo.monitoredJob', JSON.stringify({ taskArn, filename, owner }));
}
