// A programmatic client of the local hosted login: the PKCE sign-in a browser (and Amplify) does,
// over HTTPS that trusts the local certificate. For scripts and tests that need real tokens
// without a browser, such as `npm run load`.
import { createHash, randomBytes } from 'node:crypto';
import { Agent, fetch } from 'undici';
import type { RequestInit, Response } from 'undici';

export interface HttpsClient {
  fetch(url: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export function httpsClient(ca: string): HttpsClient {
  const agent = new Agent({ connect: { ca } });
  return {
    fetch: (url, init = {}) => fetch(url, { redirect: 'manual', ...init, dispatcher: agent }),
    close: () => agent.close(),
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(64).toString('base64url').slice(0, 86);
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface SignInSetup {
  client: HttpsClient;
  origin: string;
  clientId: string;
  redirectUri: string;
  email: string;
  password: string;
}

export interface CognitoTokens {
  access_token: string;
  id_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

export function authorizeQuery(setup: Pick<SignInSetup, 'clientId' | 'redirectUri'>, challenge: string, state = 'state-123'): URLSearchParams {
  return new URLSearchParams({
    redirect_uri: setup.redirectUri,
    response_type: 'code',
    client_id: setup.clientId,
    identity_provider: 'COGNITO',
    scope: 'openid email profile',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
}

/** Posts the sign-in form; returns the response (302 with a code on success). */
export async function postSignInForm(setup: SignInSetup, challenge: string, email: string, password: string): Promise<Response> {
  const fields = Object.fromEntries(authorizeQuery(setup, challenge));
  delete fields.identity_provider;
  return setup.client.fetch(`${setup.origin}/oauth2/authorize`, {
    ...form({ ...fields, email, password }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: setup.origin },
  });
}

export async function exchangeCode(setup: SignInSetup, code: string, verifier: string, redirectUri = setup.redirectUri): Promise<Response> {
  return setup.client.fetch(
    `${setup.origin}/oauth2/token`,
    form({ grant_type: 'authorization_code', code, client_id: setup.clientId, redirect_uri: redirectUri, code_verifier: verifier }),
  );
}

/** The whole hosted-login round trip; returns the code from the redirect. */
export async function signInForCode(setup: SignInSetup): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const page = await setup.client.fetch(`${setup.origin}/oauth2/authorize?${authorizeQuery(setup, challenge).toString()}`);
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}`);
  await page.text();
  const answer = await postSignInForm(setup, challenge, setup.email, setup.password);
  await answer.text();
  const location = answer.headers.get('location');
  if (answer.status !== 302 || location === null) throw new Error(`sign-in answered ${answer.status}`);
  const code = new URL(location).searchParams.get('code');
  if (code === null) throw new Error(`no code in ${location}`);
  return { code, verifier };
}

export async function signIn(setup: SignInSetup): Promise<CognitoTokens> {
  const { code, verifier } = await signInForCode(setup);
  const response = await exchangeCode(setup, code, verifier);
  if (response.status !== 200) throw new Error(`token exchange answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as CognitoTokens;
}
