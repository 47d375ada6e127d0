// Compact RS256 JSON Web Tokens, signed and checked with node:crypto. The stand-in signs every
// token here; it reads back only its own refresh tokens (the API checks access tokens with
// aws-jwt-verify, as on AWS).
import { createPublicKey, sign, verify } from 'node:crypto';
import type { SigningKey } from './signing-key.ts';

export type JwtClaims = Record<string, unknown>;

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

export function signJwt(claims: JwtClaims, key: SigningKey): string {
  const signingInput = `${encode({ kid: key.kid, alg: 'RS256' })}.${encode(claims)}`;
  const signature = sign('sha256', Buffer.from(signingInput), key.privateKey).toString('base64url');
  return `${signingInput}.${signature}`;
}

/** The claims of a token this key signed, or undefined when it is malformed or signed by another key. */
export function readOwnJwt(token: string, key: SigningKey): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown; kid?: unknown };
    if (head.alg !== 'RS256' || head.kid !== key.kid) return undefined;
    const valid = verify('sha256', Buffer.from(`${header}.${payload}`), createPublicKey(key.privateKey), Buffer.from(signature, 'base64url'));
    if (!valid) return undefined;
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as JwtClaims) : undefined;
  } catch {
    return undefined;
  }
}
