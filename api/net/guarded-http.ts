// The HTTP client every server-side fetch goes through. It applies the address guard to every
// hop, checks the addresses a socket really connects to (so a DNS answer that changes after the
// first check cannot reach a private address), keeps connections alive, caps connections per
// host, and puts a timeout on every request.
import type { LookupFunction, Socket } from 'node:net';
import { Agent, buildConnector, request as undiciRequest, type Dispatcher } from 'undici';
import { AppError, isAppError } from '../errors.ts';
import {
  assertAllowedUrl,
  isBlockedAddress,
  systemResolver,
  type AddressPolicy,
  type Resolver,
} from './address-guard.ts';

export type IncomingHttpHeaders = Dispatcher.ResponseData['headers'];

export type NetworkFailureKind = 'timeout' | 'dns' | 'refused' | 'reset' | 'tls' | 'too-large' | 'redirects' | 'other';

/** A request that got no HTTP answer; `kind` says why in terms a report can use. */
export class NetworkFailure extends Error {
  readonly kind: NetworkFailureKind;

  constructor(kind: NetworkFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkFailure';
    this.kind = kind;
  }
}

export interface GuardedHttpOptions {
  policy: AddressPolicy;
  /** DNS for the guard and for connecting; tests inject answers here. */
  resolve?: Resolver;
  /** Open connections per host (origin); further requests wait for one. */
  connectionsPerHost?: number;
  /** Default time limit of one request, headers and body, in milliseconds. */
  timeoutMs?: number;
  userAgent?: string;
}

export interface HttpRequest {
  url: string | URL;
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Read the body as text, refusing more than this many bytes. Without it the body is discarded. */
  readBodyLimit?: number;
}

export interface HttpResponse {
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text when `readBodyLimit` was given, else null. */
  body: string | null;
}

export interface RedirectHop {
  url: URL;
  status: number;
}

export interface FollowOptions {
  maxRedirects?: number;
  /** Extra headers for one hop, e.g. the session cookie for the Brightspace site's own origin only. */
  headersFor?: (url: URL) => Record<string, string>;
}

export interface FollowedResponse {
  response: HttpResponse;
  /** Every redirect answer on the way, in order; empty when the first answer was final. */
  redirects: RedirectHop[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
export const DEFAULT_USER_AGENT = 'CTPO/0.1 (Course Testing Protocol Observer; course link checker)';

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Walks an error's causes (and AggregateError members) for the guard's refusal. */
function findAddressRefusal(error: unknown, depth = 0): AppError | undefined {
  if (depth > 5 || error === null || typeof error !== 'object') return undefined;
  if (isAppError(error) && error.code === 'address_not_allowed') return error;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = findAddressRefusal(inner, depth + 1);
      if (found) return found;
    }
  }
  return findAddressRefusal((error as { cause?: unknown }).cause, depth + 1);
}

function errorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code !== 'UND_ERR_SOCKET' && code !== 'UND_ERR_CONNECT') return code;
  if (error instanceof AggregateError && error.errors.length > 0) return errorCode(error.errors[0], depth + 1);
  return errorCode((error as { cause?: unknown }).cause, depth + 1) ?? (typeof code === 'string' ? code : undefined);
}

function classifyFailure(error: unknown, host: string): NetworkFailure {
  const code = errorCode(error) ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA' || code === 'EAI_NONAME') {
    return new NetworkFailure('dns', `The name ${host} does not exist in DNS.`, { cause: error });
  }
  if (code === 'ECONNREFUSED') return new NetworkFailure('refused', `${host} refused the connection.`, { cause: error });
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT') {
    return new NetworkFailure('timeout', `${host} did not answer in time.`, { cause: error });
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED' || code === 'UND_ERR_SOCKET') {
    return new NetworkFailure('reset', `${host} closed the connection.`, { cause: error });
  }
  if (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('SSL') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE') {
    return new NetworkFailure('tls', `${host} has a certificate problem (${code}).`, { cause: error });
  }
  return new NetworkFailure('other', `The request to ${host} failed${code ? ` (${code})` : ''}.`, { cause: error });
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms / 1000)} s`;
}

function charsetOf(contentType: string | undefined): string {
  const match = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '');
  return match?.[1] ?? 'utf-8';
}

export class GuardedHttpClient {
  readonly policy: AddressPolicy;
  readonly #resolve: Resolver;
  readonly #agent: Agent;
  readonly #timeoutMs: number;
  readonly #userAgent: string;

  constructor(options: GuardedHttpOptions) {
    this.policy = options.policy;
    this.#resolve = options.resolve ?? systemResolver;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    const policy = this.policy;
    const resolve = this.#resolve;

    // Called by net/tls.connect for every host name: the addresses checked are the ones used.
    const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
      resolve(hostname).then(
        (answers) => {
          const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
          const usable = family === 0 ? answers : answers.filter((answer) => answer.family === family);
          if (!policy.allowPrivateTargets && (usable.length === 0 || usable.some((answer) => isBlockedAddress(answer.address)))) {
            callback(new AppError('address_not_allowed', `${hostname} is a private, local or reserved network address. CTPO only visits public websites.`), '', 4);
            return;
          }
          if (usable.length === 0) {
            callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
            return;
          }
          if (lookupOptions.all) {
            // The callback's overloads cannot be named separately; this is the `all: true` form.
            (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, usable);
          } else {
            callback(null, usable[0]!.address, usable[0]!.family);
          }
        },
        (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4),
      );
    };
    const baseConnector = buildConnector({ timeout: Math.min(this.#timeoutMs, 10_000), lookup: guardedLookup });
    // IP literals skip the lookup; checking the connected socket's address covers them too.
    const connect: buildConnector.connector = (connectOptions, callback) => {
      baseConnector(connectOptions, (...args) => {
        const [error, socket] = args;
        if (error || policy.allowPrivateTargets) {
          callback(...args);
          return;
        }
        const remote = (socket as Socket).remoteAddress;
        if (remote !== undefined && isBlockedAddress(remote)) {
          (socket as Socket).destroy();
          callback(new AppError('address_not_allowed', `${connectOptions.hostname} is a private, local or reserved network address. CTPO only visits public websites.`), null);
          return;
        }
        callback(...args);
      });
    };
    this.#agent = new Agent({
      connect,
      connections: options.connectionsPerHost ?? 10,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 30_000,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    });
  }

  /** One request, no redirect followed. Throws AppError (guard), NetworkFailure, or the caller's abort reason. */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const url = request.url instanceof URL ? request.url : assertAllowedUrl(request.url, this.policy);
    if (request.url instanceof URL) assertAllowedUrl(url.href, this.policy);
    const timeoutMs = request.timeoutMs ?? this.#timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;

    try {
      // No DNS pre-check here: the connector's lookup checks the addresses a new connection really
      // uses, and a kept-alive connection was checked when it opened.
      const response = await undiciRequest(url, {
        dispatcher: this.#agent,
        method: request.method ?? 'GET',
        headers: { 'user-agent': this.#userAgent, ...request.headers },
        body: request.body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      let body: string | null = null;
      if (request.readBodyLimit !== undefined && request.method !== 'HEAD') {
        body = await readText(response.body, request.readBodyLimit, headerValue(response.headers, 'content-type'), url.host);
      } else {
        // Reading a small body keeps the connection reusable; a big one is cut off instead.
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      }
      return { url, status: response.statusCode, headers: response.headers, body };
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      const refusal = findAddressRefusal(error);
      if (refusal) throw refusal;
      if (isAppError(error) || error instanceof NetworkFailure) throw error;
      if (timeout.aborted) throw new NetworkFailure('timeout', `${url.host} did not answer within ${seconds(timeoutMs)}.`, { cause: error });
      throw classifyFailure(error, url.host);
    }
  }

  /** Follows redirects by hand so every hop passes the guard again. */
  async follow(request: HttpRequest, options: FollowOptions = {}): Promise<FollowedResponse> {
    const maxRedirects = options.maxRedirects ?? 10;
    const redirects: RedirectHop[] = [];
    let url = request.url instanceof URL ? request.url : assertAllowedUrl(request.url, this.policy);
    let method = request.method ?? 'GET';
    let body = request.body;
    for (;;) {
      const response = await this.send({
        ...request,
        url,
        method,
        body,
        headers: { ...request.headers, ...options.headersFor?.(url) },
      });
      const location = headerValue(response.headers, 'location');
      if (!REDIRECT_STATUSES.has(response.status) || location === undefined) return { response, redirects };
      redirects.push({ url, status: response.status });
      if (redirects.length > maxRedirects) {
        throw new NetworkFailure('redirects', `${url.host} redirected more than ${maxRedirects} times.`);
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new NetworkFailure('other', `${url.host} redirected to an address that is not valid.`);
      }
      url = assertAllowedUrl(next.href, this.policy);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
    }
  }

  async close(): Promise<void> {
    await this.#agent.close().catch(() => undefined);
  }
}

async function readText(body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown }, limit: number, contentType: string | undefined, host: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new NetworkFailure('too-large', `The answer from ${host} is larger than ${Math.round(limit / 1024 / 1024)} MB.`);
    }
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charsetOf(contentType));
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes);
}
