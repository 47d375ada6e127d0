// Test support: the local hosted-login client (shared with the scripts), token decoding, and the
// local stack as the API tests start it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpsClient } from '../../../api/local/identity/hosted-login-client.ts';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../../api/local/local-stack.ts';
export {
  authorizeQuery,
  exchangeCode,
  httpsClient,
  pkcePair,
  postSignInForm,
  signIn,
  signInForCode,
} from '../../../api/local/identity/hosted-login-client.ts';
export type { CognitoTokens, HttpsClient, SignInSetup } from '../../../api/local/identity/hosted-login-client.ts';

export function decodeJwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * The local stack as the API tests run it: loopback only on a free port, a fresh data folder, no
 * web app and no mkcert, quiet unless told where to log. `options` adds to or replaces any of these.
 */
export async function startTestStack(tmpPrefix: string, options: Partial<LocalStackOptions> = {}): Promise<{ dataDir: string; stack: LocalStack }> {
  const dataDir = mkdtempSync(join(tmpdir(), tmpPrefix));
  const stack = await startLocalStack({ dataDir, port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1', webDist: null, useMkcert: false, log: () => undefined, ...options });
  return { dataDir, stack };
}

/** An API answer, its body parsed as JSON (`{}` when empty). */
export interface Sent {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface SendOptions {
  token?: string;
  body?: unknown;
  /** A body sent as it is, instead of `body` as JSON. */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Calls the API at `url` with a bearer token and a JSON body, as the app does. */
export async function sendJson(client: HttpsClient, method: string, url: string, options: SendOptions = {}): Promise<Sent> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined || options.body !== undefined) {
    body = options.raw ?? JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const response = await client.fetch(url, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers as unknown as Headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}
