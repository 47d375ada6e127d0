// The HTTP client every server-side fetch goes through. It applies the address guard to every
// hop, checks the addresses a socket really connects to (so a DNS answer that changes after the
// first check cannot reach a private address), keeps connections alive, caps connections per
// host, and puts a time limit on every request.
//
// Built on node:http and node:https rather than the undici package: their agents take a `lookup`
// and a `createConnection` hook, which is all the guard needs, and they are already in memory,
// while loading undici costs about 30 MB per process (measured with the engine benchmark).
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { AppError, isAppError } from '../errors.ts';
import { formatMessage, msg, type Message } from '../i18n/messages.ts';
import { assertAllowedUrl, refusesAddress, systemResolver, type AddressPolicy, type Resolver } from './address-guard.ts';

export type { IncomingHttpHeaders };

export type NetworkFailureKind = 'timeout' | 'dns' | 'refused' | 'reset' | 'tls' | 'too-large' | 'redirects' | 'other';

/** A request that got no HTTP answer; `kind` says why in terms a report can use. */
export class NetworkFailure extends Error {
  readonly kind: NetworkFailureKind;
  /** What happened, for a person; `message` is its English text. */
  readonly text: Message;

  constructor(kind: NetworkFailureKind, text: Message, options?: { cause?: unknown }) {
    super(formatMessage(text), options);
    this.name = 'NetworkFailure';
    this.kind = kind;
    this.text = text;
  }
}

export interface GuardedHttpOptions {
  policy: AddressPolicy;
  /** DNS for the guard and for connecting; tests inject answers here. */
  resolve?: Resolver;
  /** Open connections per host (origin); further requests wait for one. */
  connectionsPerHost?: number;
  /** Default time limit of one request, from sending it to the end of the answer, in milliseconds. */
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
  /** Read the body, refusing more than this many bytes. Without it the body is discarded. */
  readBodyLimit?: number;
  /** How a read body is kept: decoded as text (the default) or as the bytes received (a document). */
  readBodyAs?: 'text' | 'bytes';
  /** Keep the first `readBodyLimit` bytes of a bigger body (its start is enough) instead of refusing it. */
  truncateBody?: boolean;
}

export interface HttpResponse {
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text when `readBodyLimit` was given, else null. */
  body: string | null;
  /** The body's bytes when `readBodyAs` is `bytes`, else absent. */
  bytes?: Buffer;
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
/** A discarded body up to this size is read so the connection can be reused; a bigger one is cut. */
const DISCARD_LIMIT = 64 * 1024;
export const DEFAULT_USER_AGENT = 'CTPO/0.1 (Course Testing Protocol Observer; course link checker)';

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function notAllowed(host: string): AppError {
  return new AppError('address_not_allowed', msg('error.address.not-allowed', { host }));
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

function errorCode(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorCode(error.errors[0]);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

function classifyFailure(error: unknown, host: string): NetworkFailure {
  const code = errorCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA' || code === 'EAI_NONAME') {
    return new NetworkFailure('dns', msg('error.network.dns', { host: host.replace(/:\d+$/, '') }), { cause: error });
  }
  if (code === 'ECONNREFUSED') return new NetworkFailure('refused', msg('error.network.refused', { host }), { cause: error });
  if (code === 'ETIMEDOUT') return new NetworkFailure('timeout', msg('error.network.timeout', { host }), { cause: error });
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') {
    return new NetworkFailure('reset', msg('error.network.reset', { host }), { cause: error });
  }
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE') {
    return new NetworkFailure('tls', msg('error.network.tls', { host, code }), { cause: error });
  }
  return new NetworkFailure('other', code ? msg('error.network.other-code', { host, code }) : msg('error.network.other', { host }), { cause: error });
}

function seconds(ms: number): number {
  return ms < 10_000 ? Number((ms / 1000).toFixed(1)) : Math.round(ms / 1000);
}

function charsetOf(contentType: string | undefined): string {
  const match = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '');
  return match?.[1] ?? 'utf-8';
}

function decode(bytes: Buffer, contentType: string | undefined): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

export class GuardedHttpClient {
  readonly policy: AddressPolicy;
  readonly #timeoutMs: number;
  readonly #userAgent: string;
  readonly #httpAgent: http.Agent;
  readonly #httpsAgent: https.Agent;
  readonly #keptPerHost: number;

  constructor(options: GuardedHttpOptions) {
    this.policy = options.policy;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.#keptPerHost = options.connectionsPerHost ?? 10;
    const policy = this.policy;
    const resolve = options.resolve ?? systemResolver;

    // Called by net/tls.connect for every host name: the addresses checked are the ones used.
    const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
      resolve(hostname).then(
        (answers) => {
          const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
          const usable = family === 0 ? answers : answers.filter((answer) => answer.family === family);
          if (usable.some((answer) => refusesAddress(policy, answer.address))) {
            callback(notAllowed(hostname), '', 4);
          } else if (usable.length === 0) {
            callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
          } else if (lookupOptions.all) {
            // The callback's overloads cannot be named separately; this is the `all: true` form.
            (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, usable);
          } else {
            callback(null, usable[0]!.address, usable[0]!.family);
          }
        },
        (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4),
      );
    };
    // IP literals skip the lookup; checking the connected socket's address covers them too.
    const guardSocket = (socket: Socket, host: string) => {
      socket.once('connect', () => {
        if (socket.remoteAddress !== undefined && refusesAddress(policy, socket.remoteAddress)) socket.destroy(notAllowed(host));
      });
    };
    const agentOptions = {
      keepAlive: true,
      keepAliveMsecs: 10_000,
      maxSockets: this.#keptPerHost,
      maxFreeSockets: this.#keptPerHost,
      scheduling: 'lifo' as const,
      lookup,
    };
    class GuardedHttpAgent extends http.Agent {
      override createConnection(...args: Parameters<http.Agent['createConnection']>) {
        const socket = super.createConnection(...args) as Socket;
        guardSocket(socket, String((args[0] as { host?: string }).host));
        return socket;
      }
    }
    class GuardedHttpsAgent extends https.Agent {
      override createConnection(...args: Parameters<http.Agent['createConnection']>) {
        const socket = super.createConnection(...args) as Socket;
        guardSocket(socket, String((args[0] as { host?: string }).host));
        return socket;
      }
    }
    this.#httpAgent = new GuardedHttpAgent(agentOptions);
    this.#httpsAgent = new GuardedHttpsAgent(agentOptions);
  }

  /** One request, no redirect followed. Throws AppError (guard), NetworkFailure, or the caller's abort reason. */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const url = assertAllowedUrl(request.url instanceof URL ? request.url.href : request.url, this.policy);
    // A kept connection can turn out dead only once used: the server closed it while it sat idle,
    // or broke it (a body after a HEAD answer). A GET or HEAD that failed that way before any
    // answer is sent again; each try closes one such connection, so one more than can be kept
    // always ends on a new one.
    for (let tries = 1; ; tries++) {
      try {
        return await this.#sendOnce(url, request);
      } catch (error) {
        if (!(error instanceof DeadConnection)) throw error;
        if (tries > this.#keptPerHost) throw classifyFailure(error.cause, url.host);
      }
    }
  }

  #sendOnce(url: URL, request: HttpRequest): Promise<HttpResponse> {
    const timeoutMs = request.timeoutMs ?? this.#timeoutMs;
    const signal = request.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const client = url.protocol === 'https:' ? https : http;
    const method = request.method ?? 'GET';

    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      let answered = false;
      const finish = (error: unknown, response?: HttpResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (response) return resolve(response);
        if (signal?.aborted) return reject(signal.reason);
        const refusal = findAddressRefusal(error);
        if (refusal) return reject(refusal);
        if (isAppError(error) || error instanceof NetworkFailure) return reject(error);
        if (!answered && req.reusedSocket && method !== 'POST' && diedUnused(error)) return reject(new DeadConnection(error));
        reject(classifyFailure(error, url.host));
      };
      const req = client.request(url, {
        method,
        headers: { 'user-agent': this.#userAgent, ...request.headers },
        agent: url.protocol === 'https:' ? this.#httpsAgent : this.#httpAgent,
      });
      const timer = setTimeout(() => {
        req.destroy(new NetworkFailure('timeout', msg('error.network.timeout-after', { host: url.host, seconds: seconds(timeoutMs) })));
      }, timeoutMs);
      const onAbort = () => req.destroy(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error) => finish(error));
      req.on('response', (res: IncomingMessage) => {
        answered = true;
        const answer = (body: string | null, bytes?: Buffer) => finish(null, { url, status: res.statusCode ?? 0, headers: res.headers, body, ...(bytes === undefined ? {} : { bytes }) });
        res.on('error', (error) => finish(error));
        // A HEAD answer is whole with its headers: bytes a broken server sends after them can only
        // break the connection, not this answer.
        if (method === 'HEAD') {
          keepAfterHead(req, res);
          res.resume();
          answer(null);
          return;
        }
        if (request.readBodyLimit !== undefined) {
          const limit = request.readBodyLimit;
          // A body announced as too big is refused before a byte of it is read.
          if (request.truncateBody !== true && Number(headerValue(res.headers, 'content-length') ?? 0) > limit) {
            res.destroy();
            finish(tooLarge(url.host, limit));
            return;
          }
          readBody(res, limit, url.host, request.truncateBody === true).then(
            (bytes) => (request.readBodyAs === 'bytes' ? answer(null, bytes) : answer(decode(bytes, headerValue(res.headers, 'content-type')))),
            (error) => finish(error),
          );
          return;
        }
        // A small body is read so the connection can be reused; a big one is cut off instead.
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > DISCARD_LIMIT) {
          res.destroy();
          answer(null);
          return;
        }
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > DISCARD_LIMIT) {
            res.destroy();
            answer(null);
          }
        });
        res.on('end', () => answer(null));
      });
      req.end(request.body);
    });
  }

  /** Follows redirects by hand so every hop passes the guard again. */
  async follow(request: HttpRequest, options: FollowOptions = {}): Promise<FollowedResponse> {
    const maxRedirects = options.maxRedirects ?? 10;
    const redirects: RedirectHop[] = [];
    let url = assertAllowedUrl(request.url instanceof URL ? request.url.href : request.url, this.policy);
    let method = request.method ?? 'GET';
    let body = request.body;
    for (;;) {
      const response = await this.send({ ...request, url, method, body, headers: { ...request.headers, ...options.headersFor?.(url) } });
      const location = headerValue(response.headers, 'location');
      if (!REDIRECT_STATUSES.has(response.status) || location === undefined) return { response, redirects };
      redirects.push({ url, status: response.status });
      if (redirects.length > maxRedirects) {
        throw new NetworkFailure('redirects', msg('error.network.too-many-redirects', { host: url.host, max: maxRedirects }));
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new NetworkFailure('other', msg('error.network.bad-redirect', { host: url.host }));
      }
      url = assertAllowedUrl(next.href, this.policy);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
    }
  }

  async close(): Promise<void> {
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
  }
}

/** A request that failed on a kept connection before any answer: it may be sent again. */
class DeadConnection extends Error {
  constructor(cause: unknown) {
    super('kept connection died before an answer', { cause });
  }
}

/** How a kept connection fails when it was dead before it was used. */
function diedUnused(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ECONNRESET' || code === 'EPIPE' || code.startsWith('HPE_');
}

/**
 * A HEAD answer ends with its headers whatever they say (RFC 9112, section 6.3), so its connection
 * can carry the next request. Node's client decides before it knows the answer is a HEAD's, and
 * closes the connection when the headers give no length, as Node's own servers send them: every
 * HEAD to such a site cost a new TCP (and TLS) handshake. It is kept unless the server asked to
 * close, as curl does.
 */
function keepAfterHead(req: http.ClientRequest, res: IncomingMessage): void {
  if (req.shouldKeepAlive) return;
  const connection = (headerValue(res.headers, 'connection') ?? '').toLowerCase();
  if (res.httpVersion === '1.1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection)) req.shouldKeepAlive = true;
}

function tooLarge(host: string, limit: number): NetworkFailure {
  return new NetworkFailure('too-large', msg('error.network.too-large', { host, megabytes: Math.round(limit / 1024 / 1024) }));
}

function readBody(res: IncomingMessage, limit: number, host: string, truncate = false): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        res.destroy();
        if (!truncate) {
          reject(tooLarge(host, limit));
          return;
        }
        chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
        resolve(Buffer.concat(chunks));
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}
