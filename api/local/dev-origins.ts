// The Vite dev server's origin (`npm run dev`) is trusted as a sign-in return address and CORS origin
// only while the dev server has asked for it: trusted always, http://localhost:5173 let any local
// process that held that port while `npm run dev` was not running take a user's sign-in and token.
// The dev server proves it runs as this user by the key the stack writes, owner-only, into its data
// folder at each start (docs/security.md).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { ApiRequest } from '../http/types.ts';
import type { LocalResponse } from './node-http.ts';

/** PUT asks for http://localhost:<port> to be trusted, DELETE ends it. */
export const DEV_ORIGIN_PREFIX = '/dev-origin/';
/** The key's file in the data folder, and the header the dev server sends it in. */
export const DEV_KEY_FILE = 'dev-server-key';
export const DEV_KEY_HEADER = 'x-ctpo-dev-key';

/** The origin of a dev server on a port of this machine. */
export function devServerOrigin(port: number): string {
  return `http://localhost:${port}`;
}

/** A new key for this start, readable by this user only: a key left from an earlier start no longer works. */
export function writeDevKey(path: string): string {
  const key = randomBytes(32).toString('hex');
  writeFileSync(path, key, { mode: 0o600 });
  return key;
}

function answer(status: number, body = ''): LocalResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body };
}

/** Answers PUT and DELETE /dev-origin/<port> sent with the key; undefined for any other path. */
export function createDevOriginRoute(input: { key: string; trust: (origin: string) => void; forget: (origin: string) => void }): (request: ApiRequest) => LocalResponse | undefined {
  const expected = Buffer.from(input.key);
  return (request) => {
    if (!request.path.startsWith(DEV_ORIGIN_PREFIX)) return undefined;
    const sent = Buffer.from(request.headers[DEV_KEY_HEADER] ?? '');
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return answer(403, 'Forbidden.');
    const text = request.path.slice(DEV_ORIGIN_PREFIX.length);
    const port = Number(text);
    if (!/^[1-9]\d{0,4}$/.test(text) || port > 65535) return answer(400, 'Not a port.');
    if (request.method === 'PUT') input.trust(devServerOrigin(port));
    else if (request.method === 'DELETE') input.forget(devServerOrigin(port));
    else return answer(405, 'Method not allowed.');
    return answer(204);
  };
}
