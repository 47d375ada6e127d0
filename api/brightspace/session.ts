// A signed-in Brightspace session: API versions, the form login (with its refusals: wrong
// credentials, single sign-on only, two-step verification), the table of contents and topic files.
// The password is used once and dropped; the session cookies stay in memory, sent only to the
// site's own origin, and appear in no error, log or report.
import { AppError, isAppError } from '../errors.ts';
import { msg, type Message } from '../i18n/messages.ts';
import type { TocResponse } from './types.ts';
import type { AddressPolicy } from '../net/address-guard.ts';
import { assertAllowedUrl } from '../net/address-guard.ts';
import { headerValue, NetworkFailure, type GuardedHttpClient, type HttpRequest, type HttpResponse } from '../net/guarded-http.ts';
import { CookieJar } from './cookie-jar.ts';
import { readLoginPage } from './login-page.ts';
import { normalizeToc } from './toc.ts';
import { pickApiVersions, supportsIgnoreDateRestrictions, type ApiVersions } from './versions.ts';

const MAX_JSON_BYTES = 20 * 1024 * 1024;
export const MAX_TOPIC_BYTES = 5 * 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The site itself must be https; plain http and private addresses only with the local-use switch. */
export function sitePolicy(allowPrivateTargets: boolean): AddressPolicy {
  return { allowPrivateTargets, allowHttp: allowPrivateTargets };
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
  #versions: ApiVersions = { le: '1.51', lp: '1.30' };

  private constructor(origin: URL, http: GuardedHttpClient, signal: AbortSignal | undefined) {
    this.origin = origin;
    this.#http = http;
    this.#signal = signal;
  }

  /** Discovers the API versions, signs in and proves the session works (whoami). */
  static async open(input: OpenSessionInput): Promise<BrightspaceSession> {
    const session = new BrightspaceSession(input.origin, input.http, input.signal);
    await session.#discoverVersions();
    await session.#signIn(input.username, input.password);
    return session;
  }

  get versions(): ApiVersions {
    return this.#versions;
  }

  /** Session headers for a request: the cookies go to the site's own origin and nowhere else. */
  headersFor(url: URL): Record<string, string> {
    const cookie = this.#jar.header();
    return url.origin === this.origin.origin && cookie !== undefined ? { cookie } : {};
  }

  /** The page a person opens to see the topic in Brightspace. */
  topicViewUrl(orgUnitId: number, topicId: number): string {
    return new URL(`/d2l/le/content/${orgUnitId}/viewContent/${topicId}/View`, this.origin).href;
  }

  async getToc(orgUnitId: number): Promise<TocResponse> {
    const base = `/d2l/api/le/${this.#versions.le}/${orgUnitId}/content/toc`;
    // Newer sites know ignoreDateRestrictions; older ones only the module-level parameter.
    const parameters = supportsIgnoreDateRestrictions(this.#versions.le)
      ? ['ignoreDateRestrictions', 'ignoreModuleDateRestrictions']
      : ['ignoreModuleDateRestrictions'];
    let response: HttpResponse | undefined;
    for (const parameter of parameters) {
      response = await this.#call({ url: new URL(`${base}?${parameter}=true`, this.origin), readBodyLimit: MAX_JSON_BYTES });
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
    const toc = normalizeToc(this.#json(response, msg('error.site.what.toc')));
    if (toc === null) throw new AppError('site_error', msg('error.site.toc-shape', { host: this.origin.host }));
    return toc;
  }

  /** The course's name, or undefined when this account may not read it. */
  async getCourseName(orgUnitId: number): Promise<string | undefined> {
    try {
      const response = await this.#call({ url: new URL(`/d2l/api/lp/${this.#versions.lp}/courses/${orgUnitId}`, this.origin), readBodyLimit: 1024 * 1024 });
      if (response.status !== 200) return undefined;
      const body = this.#json(response, msg('error.site.what.course'));
      const name = (body as { Name?: unknown } | null)?.Name;
      return typeof name === 'string' ? name : undefined;
    } catch {
      if (this.#signal?.aborted) throw this.#signal.reason;
      return undefined;
    }
  }

  /** The HTML of a file topic, read with the session. A topic that cannot be read says why. */
  async getTopicHtml(orgUnitId: number, topicId: number): Promise<TopicFile> {
    let response: HttpResponse;
    try {
      ({ response } = await this.#followOwnRedirects({
        url: new URL(`/d2l/api/le/${this.#versions.le}/${orgUnitId}/content/topics/${topicId}/file`, this.origin),
        readBodyLimit: MAX_TOPIC_BYTES,
      }));
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
    if (url.origin !== this.origin.origin) return null;
    try {
      const { response } = await this.#followOwnRedirects({ url, readBodyLimit: limitBytes });
      return response.status === 200 ? (response.body ?? '') : null;
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
    }
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

  /** One request to the site with the session; cookies it sets are kept. */
  async #call(request: HttpRequest & { url: URL }): Promise<HttpResponse> {
    let response: HttpResponse;
    try {
      response = await this.#http.send({
        ...request,
        headers: { accept: 'application/json, text/html;q=0.9, */*;q=0.5', ...request.headers, ...this.headersFor(request.url) },
        signal: this.#signal,
      });
    } catch (error) {
      throw this.#siteFailure(error);
    }
    this.#jar.store(response.headers['set-cookie']);
    return response;
  }

  /** Follows redirects that stay on the site; stops at one that leaves it and says where. */
  async #followOwnRedirects(request: HttpRequest & { url: URL }): Promise<{ response: HttpResponse; leftTo: URL | null }> {
    let current = request;
    for (let hop = 0; ; hop++) {
      const response = await this.#call(current);
      const location = headerValue(response.headers, 'location');
      if (!REDIRECTS.has(response.status) || location === undefined) return { response, leftTo: null };
      const next = new URL(location, current.url);
      if (next.origin !== this.origin.origin) return { response, leftTo: next };
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

function ssoOnly(): AppError {
  return new AppError('sso_only', msg('error.site.sso-only'));
}

function loginFailed(siteOffersSso: boolean): AppError {
  return new AppError('login_failed', msg(siteOffersSso ? 'error.site.login-failed-sso' : 'error.site.login-failed'));
}
