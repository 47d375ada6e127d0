// A signed-in Brightspace session: API versions, the form login (with its refusals: wrong
// credentials, single sign-on only, two-step verification), the table of contents, topic files and
// any other API route as JSON. Every API call is paced by the site's rate-limit headers, retried
// after a 429 (as Retry-After says) or a passing 502/503/504, and signed in again once when the
// session turns out to have expired (a 401, or the 200 login page a real site may answer with).
// For that one purpose the password stays in this object's memory for the length of the run and is
// forgotten at close(); like the session cookies (sent only to the site's own origin, and for links
// only to the addresses the engine reads), it appears in no error, log or report.
import { AppError, isAppError } from '../errors.ts';
import { msg, type Message } from '../i18n/messages.ts';
import type { TocResponse } from './types.ts';
import type { AddressPolicy, Resolver } from '../net/address-guard.ts';
import { assertAllowedUrl, isPrivateSite } from '../net/address-guard.ts';
import { headerValue, NetworkFailure, type GuardedHttpClient, type HttpRequest, type HttpResponse } from '../net/guarded-http.ts';
import { backoffMs, sleep } from '../net/retry.ts';
import { CookieJar } from './cookie-jar.ts';
import { readLoginPage } from './login-page.ts';
import { normalizeToc } from './toc.ts';
import { normalizeTocText, normalizeTocTextOffThread } from './toc-json.ts';
import { pickApiVersions, supportsIgnoreDateRestrictions, type ApiVersions } from './versions.ts';
import { RateLimitPacer, siteRetryAfterMs } from './rate-limit.ts';

const MAX_JSON_BYTES = 20 * 1024 * 1024;
export const MAX_TOPIC_BYTES = 5 * 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const TRANSIENT = new Set([502, 503, 504]);
/** Retries of one call refused with 429, and of one GET that met a passing 502/503/504. */
const LIMITED_RETRIES = 4;
const TRANSIENT_RETRIES = 2;
const TRANSIENT_BACKOFF_MS = 500;
/** Sign-ins after the first in one run: a session that keeps expiring is a site problem. */
const MAX_RENEWALS = 3;
const NOT_OFFERED = new Set([404, 405, 410, 501]);

/**
 * An API route's answer as the readers see it: the JSON body, or why there is none. `not-offered`
 * is a route the site does not have (an older version, a tool turned off) or an item it does not
 * know; `forbidden` a route this account may not read.
 */
export type ApiAnswer =
  | { ok: true; status: 200; body: unknown; url: URL }
  | { ok: false; status: number; problem: 'not-offered' | 'forbidden' | 'unreadable' | 'failed'; url: URL };

/** The site itself must be https; plain http and private addresses only with the local-use switch. */
export function sitePolicy(allowPrivateTargets: boolean): AddressPolicy {
  return { allowPrivateTargets, allowHttp: allowPrivateTargets };
}

/**
 * The local-use switch as it applies to one site's run: on only when the switch is on and the site
 * itself is on a loopback or private address (isPrivateSite). A page of a public site's course could
 * otherwise make the browser read loopback and LAN services and send on what it read, and the link
 * checker GET any of them; and a public site's password would be accepted over plain http.
 */
export async function localSwitchFor(siteUrl: string, allowPrivateTargets: boolean, resolve?: Resolver): Promise<boolean> {
  if (!allowPrivateTargets || typeof siteUrl !== 'string') return false;
  let url: URL;
  try {
    url = new URL(siteUrl.trim());
  } catch {
    return false;
  }
  return isPrivateSite(url, resolve);
}

/** The site's origin from what the user typed (a path such as /d2l/home is dropped). */
export function siteOriginOf(siteUrl: string, allowPrivateTargets: boolean): URL {
  if (typeof siteUrl !== 'string' || siteUrl.trim() === '') {
    throw new AppError('invalid_input', msg('error.site.url-missing'));
  }
  return new URL(assertAllowedUrl(siteUrl, sitePolicy(allowPrivateTargets)).origin);
}

export type TopicFile = { ok: true; html: string } | { ok: false; reason: Message };
export type FileBytes = { ok: true; bytes: Buffer; contentType: string } | { ok: false; reason: Message; status?: number };

export interface OpenSessionInput {
  origin: URL;
  username: string;
  password: string;
  /** A client built with sitePolicy(): the session never relaxes the guard. */
  http: GuardedHttpClient;
  signal?: AbortSignal;
}

export class BrightspaceSession {
  readonly origin: URL;
  readonly #http: GuardedHttpClient;
  readonly #jar = new CookieJar();
  readonly #signal: AbortSignal | undefined;
  readonly #pacer = new RateLimitPacer();
  readonly #username: string;
  #password: string;
  #versions: ApiVersions = { le: '1.51', lp: '1.30' };
  /** Counts sign-ins: a call that meets an expired session knows whether another already renewed it. */
  #generation = 0;
  #renewals = 0;
  #renewing: Promise<void> | undefined;

  private constructor(input: OpenSessionInput) {
    this.origin = input.origin;
    this.#http = input.http;
    this.#signal = input.signal;
    this.#username = input.username;
    this.#password = input.password;
  }

  /** Discovers the API versions, signs in and proves the session works (whoami). */
  static async open(input: OpenSessionInput): Promise<BrightspaceSession> {
    const session = new BrightspaceSession(input);
    await session.#discoverVersions();
    await session.#signIn(input.username, input.password);
    session.#generation++;
    return session;
  }

  get versions(): ApiVersions {
    return this.#versions;
  }

  /** Calls that waited for the site's rate limit. */
  get rateLimitWaits(): number {
    return this.#pacer.waits;
  }

  /** An LE route of the course, e.g. `leUrl(6606, 'quizzes/')`. */
  leUrl(orgUnitId: number, path: string): URL {
    return new URL(`/d2l/api/le/${this.#versions.le}/${orgUnitId}/${path}`, this.origin);
  }

  /** An LP route, e.g. `lpUrl('courses/6606')`. */
  lpUrl(path: string): URL {
    return new URL(`/d2l/api/lp/${this.#versions.lp}/${path}`, this.origin);
  }

  /**
   * One API route as JSON. Only the site's own origin is read (a paging link elsewhere is refused);
   * network failures are thrown as AppError, every HTTP answer comes back as an ApiAnswer.
   */
  async getJson(address: URL): Promise<ApiAnswer> {
    if (address.origin !== this.origin.origin) throw new AppError('site_error', msg('error.site.foreign-address', { host: this.origin.host }));
    const response = await this.#api({ url: address, readBodyLimit: MAX_JSON_BYTES }, 'json');
    if (response.status === 200) {
      try {
        return { ok: true, status: 200, body: JSON.parse(response.body ?? ''), url: address };
      } catch {
        return { ok: false, status: 200, problem: 'unreadable', url: address };
      }
    }
    const problem = response.status === 403 || response.status === 401 ? 'forbidden' : NOT_OFFERED.has(response.status) ? 'not-offered' : 'failed';
    return { ok: false, status: response.status, problem, url: address };
  }

  /**
   * Session headers for a link the checks follow: the cookies go to the site's own origin, and there
   * only to the addresses the engine reads (readsWithSession), never to one that could change
   * something, such as a sign-out link in a topic.
   */
  headersFor(url: URL): Record<string, string> {
    return readsWithSession(url) ? this.#ownHeaders(url) : {};
  }

  /** The page a person opens to see the topic in Brightspace. */
  topicViewUrl(orgUnitId: number, topicId: number): string {
    return new URL(`/d2l/le/content/${orgUnitId}/viewContent/${topicId}/View`, this.origin).href;
  }

  async getToc(orgUnitId: number): Promise<TocResponse> {
    const response = await this.#fetchToc(orgUnitId);
    const toc = normalizeToc(this.#json(response, msg('error.site.what.toc')));
    if (toc === null) throw new AppError('site_error', msg('error.site.toc-shape', { host: this.origin.host }));
    return toc;
  }

  /**
   * The table of contents as JSON text, in the same shape as getToc. With `offThread`, a large
   * answer is parsed and written again in a worker thread (toc-json.ts): for a server whose main
   * thread serves everyone (not a Lambda function, which serves one request at a time and whose
   * bundle has no worker file).
   */
  async getTocJson(orgUnitId: number, options: { offThread?: boolean } = {}): Promise<string> {
    const response = await this.#fetchToc(orgUnitId);
    const text = response.body ?? '';
    const result = options.offThread === true ? await normalizeTocTextOffThread(text, this.#signal) : normalizeTocText(text);
    if (result.ok) return result.json;
    if (result.problem === 'unreadable') {
      throw new AppError('site_error', msg('error.site.unreadable-answer', { host: this.origin.host, what: msg('error.site.what.toc') }));
    }
    throw new AppError('site_error', msg('error.site.toc-shape', { host: this.origin.host }));
  }

  async #fetchToc(orgUnitId: number): Promise<HttpResponse> {
    const base = `/d2l/api/le/${this.#versions.le}/${orgUnitId}/content/toc`;
    // Newer sites know ignoreDateRestrictions; older ones only the module-level parameter.
    const parameters = supportsIgnoreDateRestrictions(this.#versions.le)
      ? ['ignoreDateRestrictions', 'ignoreModuleDateRestrictions']
      : ['ignoreModuleDateRestrictions'];
    let response: HttpResponse | undefined;
    for (const parameter of parameters) {
      response = await this.#api({ url: new URL(`${base}?${parameter}=true`, this.origin), readBodyLimit: MAX_JSON_BYTES }, 'json');
      if (response.status !== 400) break;
    }
    if (response === undefined) throw new Error('unreachable: at least one parameter is tried');
    if (response.status === 404) {
      throw new AppError('course_not_found', msg('error.site.course-not-found', { orgUnitId: String(orgUnitId) }));
    }
    if (response.status === 403) {
      throw new AppError('course_forbidden', msg('error.site.course-forbidden', { orgUnitId: String(orgUnitId) }));
    }
    this.#assertOk(response, msg('error.site.what.toc'));
    return response;
  }

  /** The HTML of a file topic, read with the session. A topic that cannot be read says why. */
  async getTopicHtml(orgUnitId: number, topicId: number): Promise<TopicFile> {
    let response: HttpResponse;
    try {
      response = await this.#api({ url: this.leUrl(orgUnitId, `content/topics/${topicId}/file`), readBodyLimit: MAX_TOPIC_BYTES }, 'page');
    } catch (error) {
      return this.#unreadableFile(error, MAX_TOPIC_BYTES);
    }
    if (response.status !== 200) {
      return { ok: false, reason: msg('reason.topic.http', { status: response.status }) };
    }
    const type = headerValue(response.headers, 'content-type') ?? '';
    if (type !== '' && !/html|text\/plain/i.test(type)) {
      return { ok: false, reason: msg('reason.topic.not-html', { type: type.split(';')[0]! }) };
    }
    return { ok: true, html: response.body ?? '' };
  }

  /** A file topic's bytes (a document), read with the session; at most `limit` bytes are accepted. */
  getTopicFile(orgUnitId: number, topicId: number, limit: number): Promise<FileBytes> {
    return this.#readBytes(new URL(`/d2l/api/le/${this.#versions.le}/${orgUnitId}/content/topics/${topicId}/file`, this.origin), limit);
  }

  /** A course file on the site's own origin (a document a page links to), read with the session. */
  getCourseFile(url: URL, limit: number): Promise<FileBytes> {
    if (url.origin !== this.origin.origin) {
      return Promise.reject(new AppError('invalid_input', msg('error.site.not-own-file', { host: url.host })));
    }
    return this.#readBytes(url, limit);
  }

  async #readBytes(url: URL, limit: number): Promise<FileBytes> {
    let response: HttpResponse;
    let leftTo: URL | null;
    try {
      ({ response, leftTo } = await this.#followOwnRedirects({ url, readBodyLimit: limit, readBodyAs: 'bytes', headers: { accept: '*/*' } }));
    } catch (error) {
      return this.#unreadableFile(error, limit);
    }
    if (leftTo !== null || response.status !== 200) {
      return { ok: false, reason: msg('reason.topic.http', { status: response.status }), status: response.status };
    }
    return { ok: true, bytes: response.bytes ?? Buffer.alloc(0), contentType: headerValue(response.headers, 'content-type') ?? '' };
  }

  /** Why a file could not be read, when the cause is the file or the network rather than the run. */
  #unreadableFile(error: unknown, limit: number): { ok: false; reason: Message } {
    if (this.#signal?.aborted) throw this.#signal.reason;
    if (error instanceof AppError && error.cause instanceof NetworkFailure && error.cause.kind === 'too-large') {
      return { ok: false, reason: msg('reason.topic.too-large', { megabytes: Math.round(limit / 1024 / 1024) }) };
    }
    if (error instanceof AppError && error.code === 'site_unreachable') return { ok: false, reason: msg('reason.topic.unreadable', { problem: error.text }) };
    throw error;
  }

  /**
   * A text file of the site read with the session (a course stylesheet), or null when it cannot be
   * read: another site, an answer other than 200, a network failure or a file over the limit.
   */
  async readSiteText(url: URL, limitBytes: number): Promise<string | null> {
    // A stylesheet address comes from course content: it is read with the session only where a link
    // would be (readsWithSession), on every hop, so it can never be a sign-out or another action.
    if (url.origin !== this.origin.origin || !readsWithSession(url)) return null;
    try {
      const { response, leftTo } = await this.#followOwnRedirects({ url, readBodyLimit: limitBytes }, readsWithSession);
      return response.status === 200 && leftTo === null ? (response.body ?? '') : null;
    } catch (error) {
      if (this.#signal?.aborted) throw this.#signal.reason;
      if (isAppError(error) && (error.code === 'site_unreachable' || error.code === 'site_error' || error.code === 'address_not_allowed')) return null;
      throw error;
    }
  }

  /** Ends the session on the site (best effort) and forgets the cookies. */
  async close(): Promise<void> {
    try {
      if (this.#jar.header() !== undefined) {
        await this.#call({ url: new URL('/d2l/logout', this.origin), timeoutMs: 5_000 });
      }
    } catch {
      // Signing out is a courtesy; the session ends on its own when idle.
    } finally {
      this.#jar.clear();
      this.#password = '';
    }
  }

  /**
   * An API call with the manners a shared site deserves: paced, retried after a 429 or a passing
   * gateway error, and signed in again once if the session has expired. `page` calls follow the
   * site's own redirects (a topic file) and expect HTML; `json` calls expect JSON.
   */
  async #api(request: HttpRequest & { url: URL }, expect: 'json' | 'page'): Promise<HttpResponse> {
    let limited = 0;
    let transient = 0;
    let renewed = false;
    for (;;) {
      const generation = this.#generation;
      const response = expect === 'page' ? (await this.#followOwnRedirects(request)).response : await this.#call(request);
      if (response.status === 429 && limited++ < LIMITED_RETRIES) continue; // the pacer holds the next call
      if (TRANSIENT.has(response.status) && (request.method ?? 'GET') === 'GET' && transient++ < TRANSIENT_RETRIES) {
        const wait = siteRetryAfterMs(response.headers) ?? backoffMs(transient, TRANSIENT_BACKOFF_MS);
        await sleep(wait, { signal: this.#signal });
        continue;
      }
      if (!signedOut(response, expect)) return response;
      if (renewed) {
        // Still refused after signing in again: the session is gone, or this route refuses it.
        if (await this.#sessionAlive()) return response;
        throw sessionLost();
      }
      await this.#renew(generation);
      renewed = true;
    }
  }

  /** Whether the site still knows the session (whoami answers). */
  async #sessionAlive(): Promise<boolean> {
    const whoami = await this.#call({ url: this.lpUrl('users/whoami'), readBodyLimit: 1024 * 1024 });
    if (whoami.status !== 200) return false;
    try {
      return (JSON.parse(whoami.body ?? '') as { Identifier?: unknown } | null)?.Identifier !== undefined;
    } catch {
      return false;
    }
  }

  /** Signs in again, once for all the calls that found the session expired at the same time. */
  async #renew(generation: number): Promise<void> {
    if (this.#generation !== generation) return;
    if (this.#renewing === undefined) {
      if (this.#renewals >= MAX_RENEWALS || this.#password === '') throw sessionLost();
      this.#renewals++;
      this.#renewing = (async () => {
        this.#jar.clear();
        await this.#signIn(this.#username, this.#password);
        this.#generation++;
      })().finally(() => {
        this.#renewing = undefined;
      });
    }
    await this.#renewing;
  }

  async #discoverVersions(): Promise<void> {
    const response = await this.#call({ url: new URL('/d2l/api/versions/', this.origin), readBodyLimit: 1024 * 1024 });
    if (response.status >= 500) {
      throw new AppError('site_error', msg('error.site.http-error', { host: this.origin.host, status: response.status }));
    }
    let versions: ApiVersions | null = null;
    if (response.status === 200) {
      try {
        versions = pickApiVersions(JSON.parse(response.body ?? ''));
      } catch {
        versions = null;
      }
    }
    if (versions === null) {
      throw new AppError('site_error', msg('error.site.not-brightspace', { host: this.origin.host }));
    }
    this.#versions = versions;
  }

  async #signIn(username: string, password: string): Promise<void> {
    const { response: page, leftTo } = await this.#followOwnRedirects({
      url: new URL('/d2l/login?noredirect=1', this.origin),
      readBodyLimit: 2 * 1024 * 1024,
    });
    if (leftTo) throw ssoOnly();
    this.#assertOk(page, msg('error.site.what.sign-in-page'));
    const login = readLoginPage(page.body ?? '');
    if (!login.hasPasswordForm) {
      if (login.hasSsoButton) throw ssoOnly();
      throw new AppError('site_error', msg('error.site.no-sign-in-form', { host: this.origin.host }));
    }

    const form = new URLSearchParams({
      loginPath: '/d2l/login',
      d2l_referrer: '',
      noredirect: '1',
      ...login.hiddenFields,
      [login.userNameField]: username,
      [login.passwordField]: password,
    });
    const answer = await this.#call({
      url: new URL('/d2l/lp/auth/login/login.d2l', this.origin),
      method: 'POST',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: new URL('/d2l/login', this.origin).href },
      readBodyLimit: 2 * 1024 * 1024,
    });
    const wrongCredentials = () => loginFailed(login.hasSsoButton);
    const location = headerValue(answer.headers, 'location');
    if (REDIRECTS.has(answer.status) && location !== undefined) {
      const target = new URL(location, this.origin);
      if (/twofactor/i.test(target.pathname)) {
        throw new AppError('two_factor_required', msg('error.site.two-factor'));
      }
      if (target.origin !== this.origin.origin) throw ssoOnly();
      if (/login(failed|error)/i.test(target.search) || target.pathname.toLowerCase() === '/d2l/login') throw wrongCredentials();
    } else if (answer.status >= 500) {
      throw new AppError('site_error', msg('error.site.sign-in-http-error', { host: this.origin.host, status: answer.status }));
    } else if (answer.status >= 400 || /login(failed|error)/i.test(answer.body ?? '')) {
      throw wrongCredentials();
    }

    const whoami = await this.#call({ url: new URL(`/d2l/api/lp/${this.#versions.lp}/users/whoami`, this.origin), readBodyLimit: 1024 * 1024 });
    if (whoami.status === 401 || whoami.status === 403) throw wrongCredentials();
    this.#assertOk(whoami, msg('error.site.what.whoami'));
    const identity = this.#json(whoami, msg('error.site.what.whoami')) as { Identifier?: unknown } | null;
    if (identity === null || identity.Identifier === undefined) throw wrongCredentials();
  }

  /** One request to the site with the session; cookies it sets are kept. API calls are paced. */
  async #call(request: HttpRequest & { url: URL }): Promise<HttpResponse> {
    const paced = request.url.pathname.startsWith('/d2l/api/');
    const release = paced ? await this.#pacer.acquire(this.#signal) : undefined;
    let response: HttpResponse;
    try {
      response = await this.#http.send({
        ...request,
        headers: { accept: 'application/json, text/html;q=0.9, */*;q=0.5', ...request.headers, ...this.#ownHeaders(request.url) },
        signal: this.#signal,
      });
    } catch (error) {
      throw this.#siteFailure(error);
    } finally {
      release?.();
    }
    if (paced) this.#pacer.observe(response.status, response.headers);
    this.#jar.store(response.headers['set-cookie']);
    return response;
  }

  /** The session's own requests (sign-in, reads, sign-out): the cookies go to the site's origin only. */
  #ownHeaders(url: URL): Record<string, string> {
    const cookie = this.#jar.header();
    return url.origin === this.origin.origin && cookie !== undefined ? { cookie } : {};
  }

  /**
   * Follows redirects that stay on the site (and, with `within`, on the addresses it allows); stops
   * at one that leaves and says where.
   */
  async #followOwnRedirects(request: HttpRequest & { url: URL }, within?: (url: URL) => boolean): Promise<{ response: HttpResponse; leftTo: URL | null }> {
    let current = request;
    for (let hop = 0; ; hop++) {
      const response = await this.#call(current);
      const location = headerValue(response.headers, 'location');
      if (!REDIRECTS.has(response.status) || location === undefined) return { response, leftTo: null };
      const next = new URL(location, current.url);
      if (next.origin !== this.origin.origin || (within !== undefined && !within(next))) return { response, leftTo: next };
      if (hop >= 5) throw new AppError('site_error', msg('error.site.redirect-loop', { host: this.origin.host }));
      current = { ...request, url: next, method: 'GET', body: undefined };
    }
  }

  #siteFailure(error: unknown): unknown {
    if (this.#signal?.aborted) return this.#signal.reason;
    if (isAppError(error)) return error;
    if (error instanceof NetworkFailure) {
      if (error.kind === 'too-large') return new AppError('site_error', error.text, { cause: error });
      return new AppError('site_unreachable', msg('error.site.unreachable', { problem: error.text }), { cause: error });
    }
    return new AppError('site_unreachable', msg('error.site.request-failed', { host: this.origin.host }));
  }

  #assertOk(response: HttpResponse, what: Message): void {
    if (response.status === 200) return;
    throw new AppError('site_error', msg('error.site.did-not-return', { host: this.origin.host, what, status: response.status }));
  }

  #json(response: HttpResponse, what: Message): unknown {
    try {
      return JSON.parse(response.body ?? '');
    } catch {
      throw new AppError('site_error', msg('error.site.unreadable-answer', { host: this.origin.host, what }));
    }
  }
}

// What a link on the site may be read with the session (links are only ever read: HEAD or GET).
// Brightspace keeps every action (sign-in, sign-out, tools that act on a request) under /d2l/, so
// the site's files outside it are read with the session, and under it only the read routes: the
// API, a course's home page and a topic's page in the Content tool. Anything else under /d2l/ is
// checked without the session, and Brightspace then answers with its sign-in page.
const SESSION_READS_UNDER_D2L: { path: RegExp; query: boolean }[] = [
  { path: /^\/d2l\/api\//i, query: true },
  { path: /^\/d2l\/home\/\d+\/?$/i, query: false },
  { path: /^\/d2l\/le\/content\/\d+\/viewContent\/\d+\/View$/i, query: false },
];

/** True when a link's address is one the engine reads with the session (see above). */
export function readsWithSession(url: URL): boolean {
  const path = url.pathname;
  // An encoded slash, backslash or dot could mean another path to the server than to this check.
  if (/%(?:2f|5c|2e)/i.test(path)) return false;
  // A server may merge empty segments ("//d2l/logout" as "/d2l/logout"): the first segment is the
  // first one that is not empty, and "d2l." or "D2L" count as "d2l", as the server may read them.
  const first = (path.split('/').find((segment) => segment !== '') ?? '').replace(/[.\s]+$/, '').toLowerCase();
  if (first.includes('%')) return false;
  // Elsewhere empty segments are harmless: a relative link such as "https;//host/page" resolves to
  // a missing file of the site, which only the session lets the site call missing.
  if (first !== 'd2l') return true;
  if (path.includes('//')) return false;
  return SESSION_READS_UNDER_D2L.some((read) => read.path.test(path) && (read.query || url.search === ''));
}

const LOGIN_PATH = /^\/d2l\/login\/?$/i;

/**
 * The site no longer knows the session: a 401, a redirect to its login page, the login page itself
 * after following redirects, or the 200 login stub some sites answer API calls with.
 */
function signedOut(response: HttpResponse, expect: 'json' | 'page'): boolean {
  if (response.status === 401) return true;
  const location = headerValue(response.headers, 'location');
  if (REDIRECTS.has(response.status) && location !== undefined) {
    try {
      return LOGIN_PATH.test(new URL(location, response.url).pathname);
    } catch {
      return false;
    }
  }
  if (response.status !== 200) return false;
  if (LOGIN_PATH.test(response.url.pathname)) return true;
  const type = headerValue(response.headers, 'content-type') ?? '';
  if (!/html/i.test(type)) return false;
  const body = response.body ?? '';
  // The stub is a few lines that send the browser on; a course page merely mentioning it is longer.
  if ((expect === 'json' || body.length < 2048) && /\/d2l\/login\?[^"'\s<>]*sessionExpired/i.test(body)) return true;
  // An API route answers JSON; an HTML page that sends to the login page means the session is gone.
  return expect === 'json' && /\/d2l\/(login|lp\/auth\/login)/i.test(body);
}

function sessionLost(): AppError {
  return new AppError('site_error', msg('error.site.session-lost'));
}

function ssoOnly(): AppError {
  return new AppError('sso_only', msg('error.site.sso-only'));
}

function loginFailed(siteOffersSso: boolean): AppError {
  return new AppError('login_failed', msg(siteOffersSso ? 'error.site.login-failed-sso' : 'error.site.login-failed'));
}
