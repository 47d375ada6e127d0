// A signed-in Brightspace session: API versions, the form login (with its refusals: wrong
// credentials, single sign-on only, two-step verification), the table of contents and topic files.
// The password is used once and dropped; the session cookies stay in memory, sent only to the
// site's own origin, and appear in no error, log or report.
import { AppError, isAppError } from '../errors.ts';
import type { TocResponse } from '../http/contract.ts';
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
    throw new AppError('invalid_input', 'The Client Site URL is missing. Use the form https://school.brightspace.com.');
  }
  return new URL(assertAllowedUrl(siteUrl, sitePolicy(allowPrivateTargets)).origin);
}

export type TopicFile = { ok: true; html: string } | { ok: false; reason: string };

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
      throw new AppError('course_not_found', `This Brightspace site has no course with org unit ID ${orgUnitId}. Check the Org Unit ID.`);
    }
    if (response.status === 403) {
      throw new AppError('course_forbidden', `This Brightspace account cannot open the course with org unit ID ${orgUnitId}. Use an account enrolled in the course, or ask for access.`);
    }
    this.#assertOk(response, 'the table of contents');
    const toc = normalizeToc(this.#json(response, 'the table of contents'));
    if (toc === null) throw new AppError('site_error', `The table of contents from ${this.origin.host} is not in the form Brightspace uses.`);
    return toc;
  }

  /** The course's name, or undefined when this account may not read it. */
  async getCourseName(orgUnitId: number): Promise<string | undefined> {
    try {
      const response = await this.#call({ url: new URL(`/d2l/api/lp/${this.#versions.lp}/courses/${orgUnitId}`, this.origin), readBodyLimit: 1024 * 1024 });
      if (response.status !== 200) return undefined;
      const body = this.#json(response, 'the course');
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
      if (this.#signal?.aborted) throw this.#signal.reason;
      if (error instanceof AppError && error.cause instanceof NetworkFailure && error.cause.kind === 'too-large') {
        return { ok: false, reason: 'The file is larger than 5 MB; CTPO does not read files that big.' };
      }
      if (error instanceof AppError && error.code === 'site_unreachable') return { ok: false, reason: `The file could not be read: ${error.message}` };
      throw error;
    }
    if (response.status !== 200) {
      return { ok: false, reason: `Brightspace could not return this file (HTTP ${response.status}).` };
    }
    const type = headerValue(response.headers, 'content-type') ?? '';
    if (type !== '' && !/html|text\/plain/i.test(type)) {
      return { ok: false, reason: `The file is not an HTML page (${type.split(';')[0]}).` };
    }
    return { ok: true, html: response.body ?? '' };
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
      throw new AppError('site_error', `${this.origin.host} answered with an error (HTTP ${response.status}). Try again later.`);
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
      throw new AppError('site_error', `${this.origin.host} does not answer like a Brightspace site. Check the Client Site URL (for example https://school.brightspace.com).`);
    }
    this.#versions = versions;
  }

  async #signIn(username: string, password: string): Promise<void> {
    const { response: page, leftTo } = await this.#followOwnRedirects({
      url: new URL('/d2l/login?noredirect=1', this.origin),
      readBodyLimit: 2 * 1024 * 1024,
    });
    if (leftTo) throw ssoOnly();
    this.#assertOk(page, 'the sign-in page');
    const login = readLoginPage(page.body ?? '');
    if (!login.hasPasswordForm) {
      if (login.hasSsoButton) throw ssoOnly();
      throw new AppError('site_error', `${this.origin.host} shows no Brightspace sign-in form. Check the Client Site URL.`);
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
        throw new AppError('two_factor_required', 'This Brightspace account asks for a two-step verification code at sign-in, which CTPO cannot enter. Use an account without two-step verification.');
      }
      if (target.origin !== this.origin.origin) throw ssoOnly();
      if (/login(failed|error)/i.test(target.search) || target.pathname.toLowerCase() === '/d2l/login') throw wrongCredentials();
    } else if (answer.status >= 500) {
      throw new AppError('site_error', `${this.origin.host} answered the sign-in with an error (HTTP ${answer.status}). Try again later.`);
    } else if (answer.status >= 400 || /login(failed|error)/i.test(answer.body ?? '')) {
      throw wrongCredentials();
    }

    const whoami = await this.#call({ url: new URL(`/d2l/api/lp/${this.#versions.lp}/users/whoami`, this.origin), readBodyLimit: 1024 * 1024 });
    if (whoami.status === 401 || whoami.status === 403) throw wrongCredentials();
    this.#assertOk(whoami, 'the signed-in user');
    const identity = this.#json(whoami, 'the signed-in user') as { Identifier?: unknown } | null;
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
      if (hop >= 5) throw new AppError('site_error', `${this.origin.host} keeps redirecting. Try again later.`);
      current = { ...request, url: next, method: 'GET', body: undefined };
    }
  }

  #siteFailure(error: unknown): unknown {
    if (this.#signal?.aborted) return this.#signal.reason;
    if (isAppError(error)) return error;
    if (error instanceof NetworkFailure) {
      if (error.kind === 'too-large') return new AppError('site_error', error.message, { cause: error });
      return new AppError('site_unreachable', `${error.message} Check the Client Site URL, or try again later.`, { cause: error });
    }
    return new AppError('site_unreachable', `The request to ${this.origin.host} failed. Check the Client Site URL, or try again later.`);
  }

  #assertOk(response: HttpResponse, what: string): void {
    if (response.status === 200) return;
    throw new AppError('site_error', `${this.origin.host} did not return ${what} (HTTP ${response.status}). Try again later.`);
  }

  #json(response: HttpResponse, what: string): unknown {
    try {
      return JSON.parse(response.body ?? '');
    } catch {
      throw new AppError('site_error', `${this.origin.host} returned ${what} in a form CTPO cannot read.`);
    }
  }
}

function ssoOnly(): AppError {
  return new AppError(
    'sso_only',
    "This Brightspace site signs people in through the institution's own login page (single sign-on), which CTPO cannot use. Use a Brightspace account that has its own password; the site's administrator can create one.",
  );
}

function loginFailed(siteOffersSso: boolean): AppError {
  const hint = siteOffersSso
    ? ' This site also offers single sign-on: CTPO can only use a Brightspace account with its own password.'
    : '';
  return new AppError('login_failed', `Brightspace did not accept this user name and password. Check them and try again.${hint}`);
}
