// The stand-in's RS256 signing key: made on first start and kept in the data folder, so tokens
// (and the job ownership keyed on their `sub`) survive a restart.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { JsonWebKey, KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface SigningKey {
  privateKey: KeyObject;
  /** RFC 7638 thumbprint of the public key: stable for the key, new when the key changes. */
  kid: string;
  /** The public half as a JWK, as the JWKS endpoint serves it. */
  publicJwk: { kty: 'RSA'; kid: string; alg: 'RS256'; use: 'sig'; n: string; e: string };
}

export function signingKeyFrom(privateKey: KeyObject): SigningKey {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as JsonWebKey;
  if (jwk.kty !== 'RSA' || typeof jwk.n !== 'string' || typeof jwk.e !== 'string') {
    throw new Error('The identity signing key must be an RSA key.');
  }
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
  return { privateKey, kid: thumbprint, publicJwk: { kty: 'RSA', kid: thumbprint, alg: 'RS256', use: 'sig', n: jwk.n, e: jwk.e } };
}

export function generateSigningKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return signingKeyFrom(privateKey);
}

/** Reads the key at `path`, or makes one and writes it there (owner-only permissions). */
export function loadOrCreateSigningKey(path: string): SigningKey {
  if (existsSync(path)) {
    return signingKeyFrom(createPrivateKey(readFileSync(path, 'utf8')));
  }
  const key = generateSigningKey();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, key.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  return key;
}
