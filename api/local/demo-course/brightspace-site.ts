// A Brightspace-like site built from a course model (data in, server out): the form login and its
// variants (local accounts, single sign-on only, two-step verification), API versions, whoami, the
// course, its table of contents, topic files and content pages. The local stack's demo course runs
// on it, and the tests and benchmarks serve their own course models with it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { courseOfferingObject, courseToolRoute, defaultCode, type ToolsSiteOptions } from './course-tools.ts';
import type { CourseModel, ModuleModel, TopicModel } from './course-model.ts';

export interface SiteModel {
  /**
   * form: local accounts only. form-and-sso: local accounts, plus an institution button.
   * sso-only: the login page has only the institution button. two-factor: the right password leads
   * to a code prompt. redirect-to-idp: /d2l/login sends the browser to another site.
   */
  login: 'form' | 'form-and-sso' | 'sso-only' | 'two-factor' | 'redirect-to-idp';
  users: SiteUser[];
  /** Announced at /d2l/api/versions/. Null makes the site not look like Brightspace. */
  versions?: { le: string; lp: string } | null;
  courses: CourseModel[];
  /** More files on the site, by path (e.g. images the HTML topics embed). Need a session. */
  files?: Record<string, SiteFile>;
  /** Which course-tool routes the site offers and how its lists page. */
  tools?: ToolsSiteOptions;
  /**
   * Brightspace's API rate limit: `calls` API calls per window of `windowMs` (each costs `cost`
   * credits, 10 by default), reported in X-Rate-Limit-* headers; past it, 429 with Retry-After.
   */
  rateLimit?: { calls: number; windowMs: number; cost?: number };
  /**
   * The session ends after this many API calls: further calls answer 401, or (`login-page`) 200
   * with the HTML stub that sends the browser to /d2l/login?sessionExpired=1, as real sites do.
   */
  sessionExpiry?: { afterCalls: number; answer: '401' | 'login-page' };
}

export interface SiteUser {
  username: string;
  password: string;
  firstName?: string;
  lastName?: string;
}

export interface SiteFile {
  contentType: string;
  /** Text, or the bytes of a binary file (a PDF, a Word file). */
  body: string | Buffer;
}

export interface RecordedSiteRequest {
  method: string;
  path: string;
  withSession: boolean;
  /** The status answered. */
  status?: number;
  userAgent?: string;
  /** When the request arrived and when its answer was sent (Date.now()). */
  at: number;
  doneAt?: number;
}

export interface BrightspaceSite {
  /** Origin with no trailing slash. */
  origin: string;
  requests: RecordedSiteRequest[];
  /** Every session cookie value handed out, to prove none leaks anywhere. */
  issuedCookieValues(): string[];
  /** Sessions still signed in (sign-out ends them). */
  activeSessions(): number;
  /** Signs a user in without the form and returns the Cookie header, for tools that take one. */
  openSession(username: string): string;
  close(): Promise<void>;
}

const ACTIVITY_TYPES = { quiz: 4, assignment: 3, discussion: 5, 'discussion-topic': 6, lti: 7 } as const;
const QUICKLINK_TYPES = { quiz: 'quiz', assignment: 'dropbox', discussion: 'discuss', 'discussion-topic': 'discuss', lti: 'lti' } as const;

/** The rcode a quicklink to a tool item carries: the tail of the item's ActivityId. */
function quicklinkCode(course: CourseModel, kind: keyof typeof QUICKLINK_TYPES, target: number): string {
  switch (kind) {
    case 'assignment':
      return course.assignments?.find((item) => item.id === target)?.code ?? defaultCode('dropbox', course, target);
    case 'quiz':
      return course.quizzes?.find((item) => item.id === target)?.code ?? defaultCode('quiz', course, target);
    case 'discussion-topic':
      return course.forums?.flatMap((forum) => forum.topics ?? []).find((item) => item.id === target)?.code ?? defaultCode('discuss', course, target);
    default:
      return `${course.code}-${kind}-${target}`;
  }
}

export function contentPath(course: CourseModel, fileName: string): string {
  return `/content/enforced/${course.orgUnitId}-${course.code}/${fileName}`;
}

function topicEntry(course: CourseModel, topic: TopicModel, index: number): Record<string, unknown> {
  const common = {
    TopicId: topic.id,
    Identifier: String(topic.id),
    Title: topic.title,
    SortOrder: index + 1,
    StartDateTime: topic.start ?? null,
    EndDateTime: topic.end ?? null,
    DueDateTime: topic.due ?? null,
    IsHidden: topic.hidden ?? false,
    IsLocked: false,
    IsBroken: topic.broken ?? false,
    IsExempt: false,
    Bookmarked: false,
    Unread: true,
    CompletionType: 2,
    // Content quicklinks name a topic by the tail of this (…&type=content&rcode=<CODE>-<id>).
    ActivityId: `https://ids.brightspace.com/activities/contenttopic/${course.code}-${topic.id}`,
    LastModifiedDate: '2026-01-05T10:00:00.000Z',
  };
  let specific: Record<string, unknown>;
  switch (topic.kind) {
    case 'html':
    case 'file':
      specific = { TypeIdentifier: 'File', ActivityType: 1, Url: contentPath(course, topic.fileName) };
      break;
    case 'link':
      specific = { TypeIdentifier: 'Link', ActivityType: 2, Url: topic.url };
      break;
    default: {
      const target = topic.target ?? topic.id;
      const url = topic.url ?? `/d2l/common/dialogs/quickLink/quickLink.d2l?ou=${course.orgUnitId}&type=${QUICKLINK_TYPES[topic.kind]}&rcode=${quicklinkCode(course, topic.kind, target)}`;
      specific = { TypeIdentifier: topic.kind === 'lti' ? 'lti' : 'Link', ActivityType: ACTIVITY_TYPES[topic.kind], Url: url, ToolItemId: target };
    }
  }
  return { ...common, ...specific, ...topic.raw };
}

function topicUrlOf(course: CourseModel, topic: TopicModel): string | null {
  const url = topicEntry(course, topic, 0).Url;
  return typeof url === 'string' ? url : null;
}

function moduleEntry(course: CourseModel, module: ModuleModel, index: number): Record<string, unknown> {
  return {
    ModuleId: module.id,
    Title: module.title,
    SortOrder: index + 1,
    StartDateTime: module.start ?? null,
    EndDateTime: module.end ?? null,
    DueDateTime: module.due ?? null,
    IsHidden: module.hidden ?? false,
    IsLocked: false,
    PacingStartDate: null,
    PacingEndDate: null,
    DefaultPath: `/content/enforced/${course.orgUnitId}-${course.code}/`,
    LastModifiedDate: '2026-01-05T10:00:00.000Z',
    Description: { Text: '', Html: '' },
    Modules: (module.modules ?? []).map((child, i) => moduleEntry(course, child, i)),
    Topics: (module.topics ?? []).map((topic, i) => topicEntry(course, topic, i)),
    ...module.raw,
  };
}

export function tocOf(course: CourseModel): { Modules: Record<string, unknown>[] } {
  return { Modules: course.modules.map((module, i) => moduleEntry(course, module, i)) };
}

function allTopics(modules: ModuleModel[]): TopicModel[] {
  return modules.flatMap((module) => [...(module.topics ?? []), ...allTopics(module.modules ?? [])]);
}

/** A fixed-window bucket as D2L describes it: credits per window, each call costing `cost`. */
function rateLimiter(config: NonNullable<SiteModel['rateLimit']>) {
  const cost = config.cost ?? 10;
  const full = config.calls * cost;
  let windowStart = Date.now();
  let remaining = full;
  return {
    take(): { ok: true; headers: Record<string, string> } | { ok: false; retryAfterSeconds: number } {
      const now = Date.now();
      if (now - windowStart >= config.windowMs) {
        windowStart = now;
        remaining = full;
      }
      const secondsLeft = Math.max(1, Math.ceil((windowStart + config.windowMs - now) / 1000));
      if (remaining < cost) return { ok: false, retryAfterSeconds: secondsLeft };
      remaining -= cost;
      return { ok: true, headers: { 'x-rate-limit-remaining': String(remaining), 'x-rate-limit-reset': String(secondsLeft), 'x-request-cost': String(cost) } };
    },
  };
}

function loginPage(variant: SiteModel['login']): string {
  const form = `<form method="post" action="/d2l/lp/auth/login/login.d2l">
  <input type="hidden" name="d2l_referrer" value="">
  <input type="hidden" name="loginPath" value="/d2l/login">
  <label for="userName">Username</label><input type="text" id="userName" name="userName">
  <label for="password">Password</label><input type="password" id="password" name="password">
  <button type="submit">Log In</button>
</form>`;
  const sso = '<d2l-button class="d2l-button-sso" onclick="location.href=\'/d2l/lp/auth/saml/login\'">Institution login</d2l-button>';
  const body = variant === 'sso-only' ? sso : variant === 'form-and-sso' ? `${sso}${form}` : form;
  return `<!doctype html><html lang="en"><head><title>Login - Brightspace</title></head><body>${body}</body></html>`;
}

function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const equals = part.indexOf('=');
    if (equals > 0) cookies.set(part.slice(0, equals).trim(), part.slice(equals + 1).trim());
  }
  return cookies;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function createBrightspaceHandler(model: SiteModel) {
  const versions = model.versions === undefined ? { le: '1.91', lp: '1.50' } : model.versions;
  // session value -> user name; pending two-step sign-ins are not sessions
  const sessions = new Map<string, string>();
  const issued: string[] = [];
  const requests: RecordedSiteRequest[] = [];
  const leAtLeast167 = versions !== null && Number(versions.le.split('.')[1]) >= 67;

  const newSession = (user: string | null) => {
    const session = randomBytes(12).toString('hex');
    const secure = randomBytes(12).toString('hex');
    issued.push(session, secure);
    if (user !== null) sessions.set(`${session}|${secure}`, user);
    return { session, secure };
  };
  const issueCookies = (res: ServerResponse, user: string | null) => {
    const { session, secure } = newSession(user);
    res.setHeader('set-cookie', [
      `d2lSessionVal=${session}; path=/; HttpOnly`,
      `d2lSecureSessionVal=${secure}; path=/; HttpOnly`,
    ]);
  };

  const limiter = model.rateLimit === undefined ? null : rateLimiter(model.rateLimit);
  const callsBySession = new Map<string, number>();
  const expired = new Set<string>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://brightspace');
    const path = url.pathname;
    const cookies = parseCookies(req.headers.cookie);
    const sessionKey = `${cookies.get('d2lSessionVal')}|${cookies.get('d2lSecureSessionVal')}`;
    let user = sessions.get(sessionKey);
    const record: RecordedSiteRequest = { method: req.method ?? 'GET', path: `${path}${url.search}`, withSession: user !== undefined, at: Date.now(), userAgent: req.headers['user-agent'] };
    requests.push(record);
    res.on('finish', () => {
      record.doneAt = Date.now();
      record.status = res.statusCode;
    });

    const send = (status: number, body: string | Buffer, type = 'text/html; charset=utf-8', headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const json = (status: number, body: unknown) => send(status, JSON.stringify(body), 'application/json; charset=utf-8');
    const redirect = (location: string) => send(302, '', 'text/html', { location });
    const apiRefused = () => json(403, { Errors: [{ Message: 'Not authorized' }] });
    const findCourse = (ou: number) => model.courses.find((course) => course.orgUnitId === ou);

    const isApi = path.startsWith('/d2l/api/');
    if (isApi && limiter !== null) {
      const verdict = limiter.take();
      // Over the limit, the three headers give way to Retry-After.
      if (!verdict.ok) return send(429, '', 'text/plain', { 'retry-after': String(verdict.retryAfterSeconds) });
      for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
    }
    if (isApi && user !== undefined && model.sessionExpiry !== undefined) {
      const calls = (callsBySession.get(sessionKey) ?? 0) + 1;
      callsBySession.set(sessionKey, calls);
      if (calls > model.sessionExpiry.afterCalls) {
        sessions.delete(sessionKey);
        expired.add(sessionKey);
        user = undefined;
      }
    }
    if (isApi && user === undefined && expired.has(sessionKey)) {
      if (model.sessionExpiry?.answer === 'login-page') {
        return send(200, `<!doctype html><html><head><title>Login</title><script>window.location.replace('/d2l/login?sessionExpired=1&target=${encodeURIComponent(path)}');</script></head><body></body></html>`);
      }
      return json(401, { Errors: [{ Message: 'Session expired' }] });
    }

    if (path === '/d2l/api/versions/' && versions !== null) {
      return json(200, [
        { ProductCode: 'lp', LatestVersion: versions.lp, SupportedVersions: ['1.30', versions.lp] },
        { ProductCode: 'le', LatestVersion: versions.le, SupportedVersions: ['1.51', versions.le] },
      ]);
    }
    if (path === '/d2l/login') {
      if (model.login === 'redirect-to-idp') return redirect('https://idp.example.edu/saml/sso?SAMLRequest=abc');
      return send(200, loginPage(model.login));
    }
    if (path === '/d2l/lp/auth/login/login.d2l' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const account = model.users.find((u) => u.username === form.get('userName') && u.password === form.get('password'));
      if (!account || model.login === 'sso-only') {
        issueCookies(res, null);
        return redirect('/d2l/login?sessionExpired=0&target=%2fd2l%2fhome&loginFailed=1');
      }
      if (model.login === 'two-factor') {
        issueCookies(res, null);
        return redirect('/d2l/lp/auth/twofactorauthentication/TwoFactorCodeEntry.d2l');
      }
      issueCookies(res, account.username);
      return redirect('/d2l/home');
    }
    if (path === '/d2l/logout') {
      sessions.delete(`${cookies.get('d2lSessionVal')}|${cookies.get('d2lSecureSessionVal')}`);
      return redirect('/d2l/login?logout=1');
    }

    if (user === undefined) {
      return path.startsWith('/d2l/api/') ? apiRefused() : redirect(`/d2l/login?target=${encodeURIComponent(path)}`);
    }

    let match: RegExpExecArray | null;
    if ((match = /^\/d2l\/api\/lp\/[\d.]+\/users\/whoami$/.exec(path))) {
      const account = model.users.find((u) => u.username === user);
      return json(200, { Identifier: '1001', FirstName: account?.firstName ?? 'Test', LastName: account?.lastName ?? 'User', UniqueName: user, ProfileIdentifier: 'p1001' });
    }
    if ((match = /^\/d2l\/api\/lp\/[\d.]+\/courses\/(\d+)$/.exec(path))) {
      const course = findCourse(Number(match[1]));
      if (!course) return json(404, { Errors: [{ Message: 'Not found' }] });
      if (course.forbiddenFor?.includes(user)) return apiRefused();
      return json(200, courseOfferingObject(course));
    }
    if ((match = /^\/d2l\/api\/le\/([\d.]+)\/(\d+)\/content\/toc$/.exec(path))) {
      const course = findCourse(Number(match[2]));
      // Old LE versions do not know the newer parameter; new ones accept both.
      if (url.searchParams.has('ignoreDateRestrictions') && !leAtLeast167) return json(400, { Errors: [{ Message: 'Invalid parameter' }] });
      if (!course) return json(404, { Errors: [{ Message: 'Not found' }] });
      if (course.forbiddenFor?.includes(user) || course.accessClosed) return apiRefused();
      return json(200, tocOf(course));
    }
    if ((match = /^\/d2l\/api\/le\/([\d.]+)\/(\d+)\/(.+)$/.exec(path)) && !match[3]!.endsWith('/file')) {
      const course = findCourse(Number(match[2]));
      if (!course) return json(404, { Errors: [{ Message: 'Not found' }] });
      if (course.forbiddenFor?.includes(user) || course.accessClosed) return apiRefused();
      const context = { course, version: match[1]!, origin: `http://${req.headers.host ?? 'brightspace'}`, options: model.tools ?? {}, topicUrl: (topic: TopicModel) => topicUrlOf(course, topic) };
      const answer = courseToolRoute(context, match[3]!, url);
      if (answer !== null) return json(answer.status, answer.body);
    }
    if ((match = /^\/d2l\/api\/le\/[\d.]+\/(\d+)\/content\/topics\/(\d+)\/file$/.exec(path))) {
      const course = findCourse(Number(match[1]));
      const topic = course ? allTopics(course.modules).find((t) => t.id === Number(match![2])) : undefined;
      if (!course || !topic) return json(404, { Errors: [{ Message: 'Not found' }] });
      if (course.forbiddenFor?.includes(user)) return apiRefused();
      if (topic.broken) return json(404, { Errors: [{ Message: 'File not found' }] });
      if (topic.kind === 'html') return send(200, topic.html);
      if (topic.kind === 'file') return send(200, topic.body ?? '', topic.contentType);
      return json(404, { Errors: [{ Message: 'Not a file topic' }] });
    }
    if ((match = /^\/content\/enforced\/(\d+)-[^/]+\/(.+)$/.exec(path))) {
      const course = findCourse(Number(match[1]));
      const fileName = decodeURIComponent(match[2]!);
      const topic = course ? allTopics(course.modules).find((t) => (t.kind === 'html' || t.kind === 'file') && t.fileName === fileName && !t.broken) : undefined;
      if (topic?.kind === 'html') return send(200, topic.html);
      if (topic?.kind === 'file') return send(200, topic.body ?? '', topic.contentType);
    }
    const file = model.files?.[path];
    if (file) return send(200, file.body, file.contentType);
    if ((match = /^\/d2l\/le\/content\/(\d+)\/viewContent\/(\d+)\/View$/.exec(path)) || (match = /^\/d2l\/home\/(\d+)$/.exec(path))) {
      const course = findCourse(Number(match[1]));
      if (!course) return send(404, '<p>Not found</p>');
      if (course.forbiddenFor?.includes(user)) return send(403, '<p>Not authorized</p>');
      if (match[2] !== undefined && !allTopics(course.modules).some((topic) => topic.id === Number(match![2]))) return send(404, '<p>Topic not found</p>');
      return send(200, `<!doctype html><title>${course.name}</title><p>${course.name}</p>`);
    }
    if (/^\/d2l\/common\/dialogs\/quickLink\/quickLink\.d2l$/i.test(path)) {
      const course = findCourse(Number(url.searchParams.get('ou')));
      const rcode = url.searchParams.get('rcode') ?? url.searchParams.get('rCode') ?? '';
      const topic = course && url.searchParams.get('type') === 'content' ? allTopics(course.modules).find((t) => `${course.code}-${t.id}`.toLowerCase() === rcode.toLowerCase()) : undefined;
      if (course && topic) return redirect(`/d2l/le/content/${course.orgUnitId}/viewContent/${topic.id}/View`);
      return send(404, '<p>Item not found</p>');
    }
    if (path === '/d2l/home') return send(200, '<!doctype html><title>Home</title><p>My Home</p>');
    return send(404, '<!doctype html><title>Not found</title><p>Not found</p>');
  };

  return {
    handle: (req: IncomingMessage, res: ServerResponse) => {
      handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    },
    requests,
    issuedCookieValues: () => [...issued],
    activeSessions: () => sessions.size,
    openSession: (username: string) => {
      const { session, secure } = newSession(username);
      return `d2lSessionVal=${session}; d2lSecureSessionVal=${secure}`;
    },
  };
}

export async function startBrightspaceSite(model: SiteModel, options: { host?: string; port?: number } = {}): Promise<BrightspaceSite> {
  const handler = createBrightspaceHandler(model);
  const server = createServer(handler.handle);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    origin: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    requests: handler.requests,
    issuedCookieValues: handler.issuedCookieValues,
    activeSessions: handler.activeSessions,
    openSession: handler.openSession,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
