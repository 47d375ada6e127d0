// The identity stand-in: the slice of Amazon Cognito that Amplify v6 and aws-jwt-verify use, so the
// app signs in locally through exactly the code paths it uses on AWS (hosted login with
// authorization code + PKCE, token refresh at `userPoolEndpoint`, sign-out through /logout).
// See the reference notes on Amplify's auth for the calls it makes and the claims it reads.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { ApiRequest, ApiResponse } from '../../http/types.ts';
import { readOwnJwt, signJwt } from './jwt.ts';
import type { JwtClaims } from './jwt.ts';
import type { SigningKey } from './signing-key.ts';
import { renderIdentityErrorPage, renderSignInPage } from './sign-in-page.ts';

/**
 * 15 minutes, as the deployed user pool's access and id tokens (infra/lib/identity.ts): a token
 * cannot be revoked, so a short life bounds what one kept after sign-out can do.
 */
export const ACCESS_TOKEN_TTL_SECONDS = 900;

export interface IdentityClient {
  clientId: string;
  /** Allowed sign-in redirect URLs (Cognito's "callback URLs"), compared exactly. */
  redirectUris: readonly string[];
  /** Allowed sign-out URLs, compared exactly. */
  logoutUris: readonly string[];
}

export interface IdentityUser {
  email: string;
  password: string;
}

export interface IdentityProviderOptions {
  /** The public origin the stand-in is reached at, e.g. https://localhost:8443: the issuer's base. */
  origin: string;
  /** Cognito-style pool id; the region prefix matters to Amplify (e.g. ca-central-1_Local). */
  poolId: string;
  clients: readonly IdentityClient[];
  users: readonly IdentityUser[];
  signingKey: SigningKey;
  /** Origins allowed to call the token and refresh endpoints from a browser. */
  corsOrigins: readonly string[];
  /** Origins the sign-in form itself may be served from (other names of this server). Default: origin. */
  formOrigins?: readonly string[];
  /** Access and id tokens' life. Default ACCESS_TOKEN_TTL_SECONDS, as the deployed user pool. */
  accessTokenTtlSeconds?: number;
  refreshTokenTtlSeconds?: number;
  codeTtlSeconds?: number;
  /** Milliseconds since the epoch; tests move it to expire codes and tokens. */
  now?: () => number;
  /**
   * A file that keeps revoked refresh tokens (their ids and expiry, no token) across restarts, as
   * Cognito does. Without it revocations live in memory only.
   */
  revocationsPath?: string;
  /** Failed sign-ins allowed per account and overall before more are refused for a while. */
  signInLimits?: Partial<SignInLimits>;
}

export interface SignInLimits {
  /** Failed sign-ins of one account within `windowMs` before its next attempts are refused. */
  perAccount: number;
  /** Failed sign-ins of all accounts within one minute before any attempt is refused. */
  overallPerMinute: number;
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAccount: 5, overallPerMinute: 30, windowMs: 15 * 60_000 };

export interface IdentityTokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  token_type: 'Bearer';
  expires_in: number;
}

export interface IdentityProvider {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly jwks: { keys: SigningKey['publicJwk'][] };
  /** Answers the stand-in's routes; undefined for any other request. */
  handle(request: ApiRequest): Promise<ApiResponse | undefined>;
  /** The e-mail of a user by their token's `sub`, as Cognito's user directory answers it. */
  emailOf(sub: string): string | undefined;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  email: string;
  expiresAt: number;
}

const DEFAULT_SCOPE = 'openid email profile';
const KNOWN_SCOPES = new Set(['openid', 'email', 'profile', 'phone', 'aws.cognito.signin.user.admin']);
const COGNITO_TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const MAX_FORM_BYTES = 16 * 1024;
const MAX_PENDING_CODES = 10_000;
// Accounts whose failed sign-ins are tracked at once; beyond it only the overall limit applies.
const MAX_TRACKED_ACCOUNTS = 10_000;

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal-length buffers, so the comparison time does not reveal the length.
  return timingSafeEqual(sha256(given), sha256(expected));
}

/** A stable, UUID-shaped subject for an e-mail address: jobs are owned by `sub`, across restarts. */
export function subjectFor(poolId: string, email: string): string {
  const hex = sha256(`${poolId}:${email.trim().toLowerCase()}`).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function parseForm(body: string | undefined): URLSearchParams | undefined {
  if (body === undefined || Buffer.byteLength(body) > MAX_FORM_BYTES) return undefined;
  return new URLSearchParams(body);
}

/** Revoked refresh token ids and their expiry (seconds), without those already expired. */
function loadRevocations(path: string | undefined, nowMs: number): Map<string, number> {
  const revoked = new Map<string, number>();
  if (path === undefined || !existsSync(path)) return revoked;
  try {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    for (const [jti, exp] of Object.entries(stored)) {
      if (typeof exp === 'number' && exp * 1000 > nowMs) revoked.set(jti, exp);
    }
  } catch (error) {
    // A damaged file must not quietly bring revoked sessions back: refuse to start instead.
    throw new Error(`The list of revoked sign-ins at ${path} cannot be read; remove it to sign everyone out.`, { cause: error });
  }
  return revoked;
}

function saveRevocations(path: string, revoked: Map<string, number>): void {
  // Written beside and renamed over, so a crash never leaves half a file.
  const next = `${path}.${process.pid}.tmp`;
  writeFileSync(next, JSON.stringify(Object.fromEntries(revoked)), { mode: 0o600 });
  renameSync(next, path);
}

function mediaTypeOf(headers: ApiRequest['headers']): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

export function createIdentityProvider(options: IdentityProviderOptions): IdentityProvider {
  const now = options.now ?? (() => Date.now());
  const accessTtl = options.accessTokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  const refreshTtl = options.refreshTokenTtlSeconds ?? 30 * 24 * 3600;
  const codeTtl = options.codeTtlSeconds ?? 60;
  const issuer = `${options.origin}/${options.poolId}`;
  const jwksPath = `/${options.poolId}/.well-known/jwks.json`;
  const discoveryPath = `/${options.poolId}/.well-known/openid-configuration`;
  const jwks = { keys: [options.signingKey.publicJwk] };
  const clients = new Map(options.clients.map((client) => [client.clientId, client]));
  const users = new Map(options.users.map((user) => [user.email.trim().toLowerCase(), user]));
  const usersBySubject = new Map(options.users.map((user) => [subjectFor(options.poolId, user.email), user]));
  const codes = new Map<string, PendingCode>();
  // Revoked refresh tokens: jti -> expiry (seconds). Kept in the revocations file when there is one,
  // so a restart does not bring a signed-out session back.
  const revoked = loadRevocations(options.revocationsPath, now());
  const limits = { ...DEFAULT_SIGN_IN_LIMITS, ...options.signInLimits };
  // Times of recent failed sign-ins, by account (lower-case e-mail) and overall.
  const failures = new Map<string, number[]>();
  let recentFailures: number[] = [];

  function revoke(jti: string, expiresAt: number): void {
    revoked.set(jti, expiresAt);
    const nowSeconds = Math.floor(now() / 1000);
    for (const [id, exp] of revoked) if (exp <= nowSeconds) revoked.delete(id);
    if (options.revocationsPath !== undefined) saveRevocations(options.revocationsPath, revoked);
  }

  /** Minutes until this account may try again, or 0 when it may now. */
  function signInWait(account: string): number {
    const at = now();
    recentFailures = recentFailures.filter((time) => time > at - 60_000);
    const mine = (failures.get(account) ?? []).filter((time) => time > at - limits.windowMs);
    if (mine.length === 0) failures.delete(account);
    else failures.set(account, mine);
    if (mine.length >= limits.perAccount) return Math.max(1, Math.ceil((mine[0]! + limits.windowMs - at) / 60_000));
    if (recentFailures.length >= limits.overallPerMinute) return 1;
    return 0;
  }

  function recordFailure(account: string): void {
    const at = now();
    recentFailures.push(at);
    // Accounts that do not exist are counted too: their attempts are refused as any other's.
    if (failures.size < MAX_TRACKED_ACCOUNTS || failures.has(account)) failures.set(account, [...(failures.get(account) ?? []), at]);
  }

  const securityHeaders = {
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // Not no-referrer: under it a browser sends `Origin: null` with the form post, and the origin
    // check of the sign-in form needs the real one. Other sites still learn nothing.
    'referrer-policy': 'same-origin',
  };

  function corsHeaders(request: ApiRequest): Record<string, string> {
    const origin = request.headers.origin;
    if (origin === undefined || !options.corsOrigins.includes(origin)) return {};
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': 'x-amzn-errortype, x-amzn-requestid',
      vary: 'Origin',
    };
  }

  function json(request: ApiRequest, status: number, body: unknown, extra: Record<string, string> = {}): ApiResponse {
    return {
      status,
      headers: { ...securityHeaders, ...corsHeaders(request), 'content-type': 'application/json', ...extra },
      body: JSON.stringify(body),
    };
  }

  function html(status: number, body: string, formAction = "'self'", extra: Record<string, string> = {}): ApiResponse {
    return {
      status,
      headers: {
        ...securityHeaders,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
        'x-frame-options': 'DENY',
        ...extra,
      },
      body,
    };
  }

  function redirect(location: string): ApiResponse {
    return { status: 302, headers: { ...securityHeaders, location }, body: '' };
  }

  function redirectWithError(redirectUri: string, error: string, description: string, state: string | null): ApiResponse {
    const target = new URL(redirectUri);
    target.searchParams.set('error', error);
    target.searchParams.set('error_description', description);
    if (state !== null) target.searchParams.set('state', state);
    return redirect(target.href);
  }

  function issueTokens(email: string, clientId: string, scope: string, withRefreshToken: { jti: string } | undefined, originJti: string): IdentityTokens {
    const issuedAt = Math.floor(now() / 1000);
    const sub = subjectFor(options.poolId, email);
    const common = { sub, iss: issuer, origin_jti: originJti, event_id: randomUUID(), auth_time: issuedAt, iat: issuedAt, exp: issuedAt + accessTtl };
    const access: JwtClaims = {
      ...common,
      token_use: 'access',
      client_id: clientId,
      scope,
      jti: randomUUID(),
      username: sub,
    };
    const id: JwtClaims = {
      ...common,
      token_use: 'id',
      aud: clientId,
      'cognito:username': sub,
      email,
      email_verified: true,
      jti: randomUUID(),
    };
    const tokens: IdentityTokens = {
      access_token: signJwt(access, options.signingKey),
      id_token: signJwt(id, options.signingKey),
      token_type: 'Bearer',
      expires_in: accessTtl,
    };
    if (withRefreshToken !== undefined) {
      const refresh: JwtClaims = {
        sub,
        iss: issuer,
        token_use: 'refresh',
        client_id: clientId,
        scope,
        jti: withRefreshToken.jti,
        iat: issuedAt,
        exp: issuedAt + refreshTtl,
      };
      tokens.refresh_token = signJwt(refresh, options.signingKey);
    }
    return tokens;
  }

  /** The user and scope behind a refresh token, or a reason it cannot be used. */
  function redeemRefreshToken(token: string, clientId: string): { email: string; scope: string; jti: string } | string {
    const claims = readOwnJwt(token, options.signingKey);
    if (claims === undefined || claims.token_use !== 'refresh' || claims.iss !== issuer) return 'Invalid Refresh Token';
    if (claims.client_id !== clientId) return 'Invalid Refresh Token';
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now()) return 'Refresh Token has expired';
    if (typeof claims.jti !== 'string' || revoked.has(claims.jti)) return 'Refresh Token has been revoked';
    const user = typeof claims.sub === 'string' ? usersBySubject.get(claims.sub) : undefined;
    if (user === undefined) return 'User does not exist.';
    return { email: user.email, scope: typeof claims.scope === 'string' ? claims.scope : DEFAULT_SCOPE, jti: claims.jti };
  }

  function grantedScope(requested: string | null): string {
    if (requested === null || requested.trim() === '') return DEFAULT_SCOPE;
    const scopes = requested.split(/\s+/).filter((scope) => KNOWN_SCOPES.has(scope));
    return scopes.length === 0 ? DEFAULT_SCOPE : [...new Set(scopes)].join(' ');
  }

  type AuthorizeCheck =
    | { ok: true; client: IdentityClient; redirectUri: string; state: string | null; scope: string; codeChallenge: string; forward: Record<string, string> }
    | { ok: false; response: ApiResponse };

  /** Checks the authorize parameters in Cognito's order: never redirects to an unchecked address. */
  function checkAuthorizeParams(params: URLSearchParams): AuthorizeCheck {
    const client = clients.get(params.get('client_id') ?? '');
    if (client === undefined) {
      return { ok: false, response: html(400, renderIdentityErrorPage('Unknown client_id: this application is not registered with the sign-in service.')) };
    }
    const redirectUri = params.get('redirect_uri') ?? '';
    if (!client.redirectUris.includes(redirectUri)) {
      return { ok: false, response: html(400, renderIdentityErrorPage('The redirect_uri is not one of the allowed sign-in return addresses of this application.')) };
    }
    const state = params.get('state');
    if (state !== null && state.length > 2048) {
      return { ok: false, response: redirectWithError(redirectUri, 'invalid_request', 'state is too long', null) };
    }
    if (params.get('response_type') !== 'code') {
      return { ok: false, response: redirectWithError(redirectUri, 'unsupported_response_type', 'Only response_type=code is supported.', state) };
    }
    const codeChallenge = params.get('code_challenge') ?? '';
    if (params.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
      return { ok: false, response: redirectWithError(redirectUri, 'invalid_request', 'A PKCE code_challenge with code_challenge_method=S256 is required.', state) };
    }
    const scope = grantedScope(params.get('scope'));
    const forward: Record<string, string> = {
      client_id: client.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    };
    if (state !== null) forward.state = state;
    return { ok: true, client, redirectUri, state, scope, codeChallenge, forward };
  }

  function formActionFor(redirectUri: string): string {
    // Browsers apply form-action to the redirect that follows the form post, so the app's origin
    // (already checked against the client's list) must be allowed too.
    return `'self' ${new URL(redirectUri).origin}`;
  }

  function authorizeGet(request: ApiRequest): ApiResponse {
    const check = checkAuthorizeParams(request.query ?? new URLSearchParams());
    if (!check.ok) return check.response;
    return html(200, renderSignInPage({ params: check.forward }), formActionFor(check.redirectUri));
  }

  function authorizePost(request: ApiRequest): ApiResponse {
    const origin = request.headers.origin;
    // A browser form post names its origin; refusing others (and the opaque 'null' of sandboxed
    // frames) stops a foreign page from signing a visitor in behind their back.
    if (origin !== undefined && !(options.formOrigins ?? [options.origin]).includes(origin)) {
      return html(403, renderIdentityErrorPage('This sign-in form can only be sent from the sign-in page itself.'));
    }
    const form = mediaTypeOf(request.headers) === 'application/x-www-form-urlencoded' ? parseForm(request.body) : undefined;
    if (form === undefined) return html(400, renderIdentityErrorPage('The sign-in form was not sent as a form.'));
    const check = checkAuthorizeParams(form);
    if (!check.ok) return check.response;
    const email = (form.get('email') ?? '').trim();
    const password = form.get('password') ?? '';
    const account = email.toLowerCase();
    // Refused before the password is even compared, so a guesser learns nothing from these tries.
    const wait = signInWait(account);
    if (wait > 0) {
      const error = `Too many failed sign-ins. Wait ${wait === 1 ? '1 minute' : `${wait} minutes`}, then try again.`;
      return html(429, renderSignInPage({ params: check.forward, email, error }), formActionFor(check.redirectUri), { 'retry-after': String(wait * 60) });
    }
    const user = users.get(account);
    // Compare against a dummy when the user is unknown, so timing does not tell which e-mails exist.
    const passwordOk = sameSecret(password, user?.password ?? randomBytes(16).toString('hex')) && user !== undefined;
    if (!passwordOk) {
      recordFailure(account);
      return html(200, renderSignInPage({ params: check.forward, email, error: 'Incorrect email or password.' }), formActionFor(check.redirectUri));
    }
    failures.delete(account);
    pruneExpiredCodes();
    if (codes.size >= MAX_PENDING_CODES) {
      return html(503, renderIdentityErrorPage('Too many sign-ins in progress. Try again in a minute.'));
    }
    const code = randomBytes(32).toString('base64url');
    codes.set(code, {
      clientId: check.client.clientId,
      redirectUri: check.redirectUri,
      codeChallenge: check.codeChallenge,
      scope: check.scope,
      email: user.email,
      expiresAt: now() + codeTtl * 1000,
    });
    const target = new URL(check.redirectUri);
    target.searchParams.set('code', code);
    if (check.state !== null) target.searchParams.set('state', check.state);
    return redirect(target.href);
  }

  function pruneExpiredCodes(): void {
    const at = now();
    for (const [code, pending] of codes) {
      if (pending.expiresAt <= at) codes.delete(code);
    }
  }

  function tokenError(request: ApiRequest, error: string, description: string): ApiResponse {
    return json(request, 400, { error, error_description: description });
  }

  function token(request: ApiRequest): ApiResponse {
    const form = mediaTypeOf(request.headers) === 'application/x-www-form-urlencoded' ? parseForm(request.body) : undefined;
    if (form === undefined) return tokenError(request, 'invalid_request', 'Send the token request as application/x-www-form-urlencoded.');
    const clientId = form.get('client_id') ?? '';
    if (!clients.has(clientId)) return tokenError(request, 'invalid_client', 'Unknown client_id.');
    const grantType = form.get('grant_type');

    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const pending = codes.get(code);
      // Single use: the first attempt spends the code, whatever its outcome.
      codes.delete(code);
      if (pending === undefined) return tokenError(request, 'invalid_grant', 'The authorization code is unknown or was already used.');
      if (pending.expiresAt <= now()) return tokenError(request, 'invalid_grant', 'The authorization code has expired.');
      if (pending.clientId !== clientId) return tokenError(request, 'invalid_grant', 'The authorization code was issued to another client.');
      if (form.get('redirect_uri') !== pending.redirectUri) return tokenError(request, 'invalid_grant', 'redirect_uri does not match the one used to sign in.');
      const verifier = form.get('code_verifier') ?? '';
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || !sameSecret(sha256(verifier).toString('base64url'), pending.codeChallenge)) {
        return tokenError(request, 'invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
      }
      const jti = randomUUID();
      return json(request, 200, issueTokens(pending.email, clientId, pending.scope, { jti }, jti));
    }

    if (grantType === 'refresh_token') {
      const redeemed = redeemRefreshToken(form.get('refresh_token') ?? '', clientId);
      if (typeof redeemed === 'string') return tokenError(request, 'invalid_grant', redeemed);
      return json(request, 200, issueTokens(redeemed.email, clientId, redeemed.scope, undefined, redeemed.jti));
    }

    return tokenError(request, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }

  function logout(request: ApiRequest): ApiResponse {
    const query = request.query ?? new URLSearchParams();
    const client = clients.get(query.get('client_id') ?? '');
    if (client === undefined) return html(400, renderIdentityErrorPage('Unknown client_id: this application is not registered with the sign-in service.'));
    const logoutUri = query.get('logout_uri');
    if (logoutUri !== null) {
      if (!client.logoutUris.includes(logoutUri)) {
        return html(400, renderIdentityErrorPage('The logout_uri is not one of the allowed sign-out addresses of this application.'));
      }
      return redirect(logoutUri);
    }
    // Cognito's other form: sign out, then back to the sign-in page with these parameters.
    if (query.get('redirect_uri') !== null) {
      const check = checkAuthorizeParams(query);
      if (!check.ok) return check.response;
      return redirect(`/oauth2/authorize?${new URLSearchParams(check.forward).toString()}`);
    }
    return html(400, renderIdentityErrorPage('A logout_uri is required.'));
  }

  function cognitoError(request: ApiRequest, type: string, message: string): ApiResponse {
    return json(request, 400, { __type: type, message }, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': type });
  }

  function cognitoApi(request: ApiRequest, target: string): ApiResponse {
    let input: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(request.body ?? '');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TypeError('not an object');
      input = parsed as Record<string, unknown>;
    } catch {
      return cognitoError(request, 'InvalidParameterException', 'The request body must be a JSON object.');
    }
    const clientId = typeof input.ClientId === 'string' ? input.ClientId : '';
    const ok = (body: unknown): ApiResponse =>
      json(request, 200, body, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
    const operation = target.slice(COGNITO_TARGET_PREFIX.length);

    if (operation === 'GetTokensFromRefreshToken' || operation === 'InitiateAuth') {
      if (!clients.has(clientId)) return cognitoError(request, 'ResourceNotFoundException', 'User pool client does not exist.');
      let refreshToken: unknown = input.RefreshToken;
      if (operation === 'InitiateAuth') {
        const flow = input.AuthFlow;
        if (flow !== 'REFRESH_TOKEN_AUTH' && flow !== 'REFRESH_TOKEN') {
          return cognitoError(request, 'InvalidParameterException', 'Only the REFRESH_TOKEN_AUTH flow is supported by the local sign-in service.');
        }
        const parameters = input.AuthParameters as Record<string, unknown> | undefined;
        refreshToken = parameters?.REFRESH_TOKEN;
      }
      if (typeof refreshToken !== 'string') return cognitoError(request, 'InvalidParameterException', 'A refresh token is required.');
      const redeemed = redeemRefreshToken(refreshToken, clientId);
      if (typeof redeemed === 'string') return cognitoError(request, 'NotAuthorizedException', redeemed);
      const tokens = issueTokens(redeemed.email, clientId, redeemed.scope, undefined, redeemed.jti);
      const result = { AccessToken: tokens.access_token, IdToken: tokens.id_token, ExpiresIn: tokens.expires_in, TokenType: 'Bearer' };
      return ok(operation === 'InitiateAuth' ? { AuthenticationResult: result, ChallengeParameters: {} } : { AuthenticationResult: result });
    }

    if (operation === 'RevokeToken') {
      if (!clients.has(clientId)) return cognitoError(request, 'ResourceNotFoundException', 'User pool client does not exist.');
      const claims = typeof input.Token === 'string' ? readOwnJwt(input.Token, options.signingKey) : undefined;
      if (claims === undefined || claims.token_use !== 'refresh' || claims.client_id !== clientId || typeof claims.jti !== 'string') {
        return cognitoError(request, 'UnsupportedTokenTypeException', 'Only a refresh token of this client can be revoked.');
      }
      revoke(claims.jti, typeof claims.exp === 'number' ? claims.exp : Math.floor(now() / 1000) + refreshTtl);
      return ok({});
    }

    return cognitoError(request, 'UnsupportedOperationException', `The local sign-in service does not implement ${operation}.`);
  }

  function isIdentityRoute(request: ApiRequest): boolean {
    const { path } = request;
    if (path === '/oauth2/authorize' || path === '/oauth2/token' || path === '/logout') return true;
    if (path === jwksPath || path === discoveryPath) return true;
    return path === '/' && (request.method === 'OPTIONS' || request.headers['x-amz-target'] !== undefined);
  }

  function preflight(request: ApiRequest): ApiResponse {
    const cors = corsHeaders(request);
    if (cors['access-control-allow-origin'] === undefined) {
      return { status: 403, headers: { ...securityHeaders }, body: '' };
    }
    // Echo the requested headers (Amplify adds x-amz-user-agent and friends), keeping only header-name characters.
    const requested = (request.headers['access-control-request-headers'] ?? '').replace(/[^A-Za-z0-9,\- ]/g, '');
    return {
      status: 204,
      headers: {
        ...securityHeaders,
        ...cors,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': requested === '' ? 'content-type' : requested,
        'access-control-max-age': '600',
      },
      body: '',
    };
  }

  return {
    issuer,
    jwksUri: `${options.origin}${jwksPath}`,
    jwks,
    emailOf: (sub) => usersBySubject.get(sub)?.email,
    async handle(request) {
      if (!isIdentityRoute(request)) return undefined;
      const { method, path } = request;
      if (method === 'OPTIONS') return preflight(request);
      if (path === '/oauth2/authorize' && method === 'GET') return authorizeGet(request);
      if (path === '/oauth2/authorize' && method === 'POST') return authorizePost(request);
      if (path === '/oauth2/token' && method === 'POST') return token(request);
      if (path === '/logout' && method === 'GET') return logout(request);
      if (path === jwksPath && method === 'GET') {
        return json(request, 200, jwks, { 'cache-control': 'public, max-age=300' });
      }
      if (path === discoveryPath && method === 'GET') {
        return json(request, 200, {
          issuer,
          authorization_endpoint: `${options.origin}/oauth2/authorize`,
          token_endpoint: `${options.origin}/oauth2/token`,
          end_session_endpoint: `${options.origin}/logout`,
          jwks_uri: `${options.origin}${jwksPath}`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          id_token_signing_alg_values_supported: ['RS256'],
          subject_types_supported: ['public'],
          scopes_supported: [...KNOWN_SCOPES],
        });
      }
      if (path === '/' && method === 'POST') {
        const target = request.headers['x-amz-target'] ?? '';
        if (!target.startsWith(COGNITO_TARGET_PREFIX)) {
          return cognitoError(request, 'UnknownOperationException', 'Unknown x-amz-target.');
        }
        return cognitoApi(request, target);
      }
      return {
        status: 405,
        headers: { ...securityHeaders, allow: path === '/oauth2/authorize' ? 'GET, POST' : path === '/oauth2/token' || path === '/' ? 'POST' : 'GET', 'content-type': 'application/json' },
        body: JSON.stringify({ message: `${method} is not allowed here.`, code: 'method_not_allowed' }),
      };
    },
  };
}
