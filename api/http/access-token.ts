// Who is calling: the bearer access token, verified with aws-jwt-verify. On AWS the issuer is the
// Cognito user pool (CognitoJwtVerifier); locally it is the identity stand-in (JwtRsaVerifier
// against its JWKS). Both check the signature, issuer, token_use = access, client_id and expiry.
import { CognitoJwtVerifier, JwtRsaVerifier } from 'aws-jwt-verify';
import { JwtExpiredError } from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { SimpleFetcher } from 'aws-jwt-verify/https';
import type { Jwks } from 'aws-jwt-verify/jwk';
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';

export interface Caller {
  /** The token's `sub`: jobs are owned by it. */
  sub: string;
  username: string;
  /** When the access token expires (its `exp`): what it asks for lasts no longer. */
  expiresAt?: Date;
}

export interface TokenVerifier {
  /** Resolves the caller of a raw access token, or throws AppError `unauthorized`. */
  verify(accessToken: string): Promise<Caller>;
}

const MISSING = msg('error.auth.missing');
const EXPIRED = msg('error.auth.expired');
const INVALID = msg('error.auth.invalid');

// A JWT is three base64url parts; anything else is refused before any cryptography runs. Exactly as
// the app sends it, one space and nothing around: the edge counts callers by this header, and a
// padded variant would otherwise be a caller of its own there (infra/lib/edge.ts).
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/;
const MAX_TOKEN_LENGTH = 8192;

/** The access token of an `Authorization: Bearer …` header. */
export function bearerTokenOf(authorization: string | undefined): string {
  if (authorization === undefined || authorization.trim() === '') throw new AppError('unauthorized', MISSING);
  const match = authorization.length <= MAX_TOKEN_LENGTH ? BEARER.exec(authorization) : null;
  if (match === null) throw new AppError('unauthorized', INVALID);
  return match[1]!;
}

function callerOf(payload: Record<string, unknown>): Caller {
  const sub = payload.sub;
  if (typeof sub !== 'string' || sub === '') throw new AppError('unauthorized', INVALID);
  const username = typeof payload.username === 'string' ? payload.username : sub;
  return { sub, username, ...(typeof payload.exp === 'number' ? { expiresAt: new Date(payload.exp * 1000) } : {}) };
}

function asUnauthorized(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('unauthorized', error instanceof JwtExpiredError ? EXPIRED : INVALID, { cause: error });
}

/** Whatever verified the token, the caller comes out the same way and every failure is a 401. */
function tokenVerifierOf(verifyJwt: (accessToken: string) => Promise<Record<string, unknown>>): TokenVerifier {
  return {
    async verify(accessToken) {
      try {
        return callerOf(await verifyJwt(accessToken));
      } catch (error) {
        throw asUnauthorized(error);
      }
    },
  };
}

/** Production: a Cognito user pool and its web client. */
export function createCognitoTokenVerifier(options: { userPoolId: string; clientId: string }): TokenVerifier {
  const verifier = CognitoJwtVerifier.create({ userPoolId: options.userPoolId, tokenUse: 'access', clientId: options.clientId });
  return tokenVerifierOf((accessToken) => verifier.verify(accessToken));
}

export interface IssuerTokenVerifierOptions {
  /** The `iss` claim, e.g. https://localhost:8443/ca-central-1_Local */
  issuer: string;
  jwksUri: string;
  clientId: string;
  /** Extra trusted CA certificates (PEM) for fetching the JWKS, e.g. the local self-signed one. */
  ca?: string;
  /** A JWKS already at hand (same process as the issuer): no fetch needed for its keys. */
  jwks?: Jwks;
}

/** Any other issuer with Cognito-shaped access tokens: the local identity stand-in. */
export function createIssuerTokenVerifier(options: IssuerTokenVerifierOptions): TokenVerifier {
  const fetcher = new SimpleFetcher({ defaultRequestOptions: options.ca === undefined ? {} : { ca: options.ca, responseTimeout: 5000 } });
  const verifier = JwtRsaVerifier.create(
    {
      issuer: options.issuer,
      jwksUri: options.jwksUri,
      // Access tokens carry client_id, not aud: the client is checked below, as CognitoJwtVerifier does.
      audience: null,
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'access') throw new Error('not an access token');
        if (payload.client_id !== options.clientId) throw new Error('issued to another client');
      },
    },
    { jwksCache: new SimpleJwksCache({ fetcher }) },
  );
  if (options.jwks !== undefined) verifier.cacheJwks(options.jwks);
  return tokenVerifierOf((accessToken) => verifier.verify(accessToken));
}
