// The key the local server signs report links with (api/http/report-capability.ts): made on first
// start and kept in the data folder (owner-only), so links handed out before a restart still open.
// Deleting the file and restarting makes every earlier link stop working.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface LocalReportKey {
  keyId: string;
  key: string;
}

const KEY_ID = /^[a-z0-9]{1,16}$/;

export function loadOrCreateReportKey(path: string): LocalReportKey {
  if (existsSync(path)) {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as Partial<LocalReportKey>;
    if (typeof stored.keyId !== 'string' || !KEY_ID.test(stored.keyId) || typeof stored.key !== 'string' || stored.key.length < 32) {
      throw new Error(`The report-link key at ${path} is damaged; remove it (earlier report links then stop working).`);
    }
    return { keyId: stored.keyId, key: stored.key };
  }
  // 8 letters and digits for the id (a new one each time a key is made), 256 random bits for the key.
  const keyId = Array.from(randomBytes(8), (byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'[byte % 36]).join('');
  const key = { keyId, key: randomBytes(32).toString('hex') };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(key), { mode: 0o600, flag: 'wx' });
  return key;
}
