// The Brightspace client on a real site's terms: it stays under the site's rate limit (no 429
// received), waits as Retry-After says when refused, signs in again once when the session expires
// (a 401 or a 200 login page), gives up on a session that keeps expiring, turns a 403 after the
// course's access window into a reason the user can act on, and notes the routes an older site
// does not offer instead of failing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimitPacer } from '../../../api/brightspace/rate-limit.ts';
import { BrightspaceSession } from '../../../api/brightspace/session.ts';
import { AppError } from '../../../api/errors.ts';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import { createBrightspaceHandler, startBrightspaceSite, type BrightspaceSite, type SiteModel } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';
import { WHOLE_ORG_UNIT, WHOLE_PASSWORD, WHOLE_USER, wholeCourse, wholeCourseInput, wholeCourseSite } from '../../fixtures/whole-course.ts';

// Whole engine runs against real servers, on a machine shared with other test runs.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let web: LinkHost;
let baseline: string[];

function checksOf(report: { findings: { itemType: string; itemId: number | null; check: string }[] }): string[] {
  return report.findings.map((f) => `${f.itemType}:${f.itemId} ${f.check}`);
}

async function withSite<T>(overrides: Partial<SiteModel>, work: (site: BrightspaceSite) => Promise<T>): Promise<T> {
  const site = await startBrightspaceSite(wholeCourseSite(web.origin, overrides));
  try {
    return await work(site);
  } finally {
    await site.close();
  }
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the run to fail');
}

const apiCalls = (site: BrightspaceSite) => site.requests.filter((request) => request.path.startsWith('/d2l/api/'));
const logins = (site: BrightspaceSite) => site.requests.filter((request) => request.path === '/d2l/lp/auth/login/login.d2l').length;

beforeAll(async () => {
  web = await startLinkHost();
  baseline = await withSite({}, async (site) => checksOf(await runCourseTest(wholeCourseInput(site.origin))));
}, 60_000);

afterAll(async () => {
  await web?.close();
});

describe('rate limits', () => {
  it('stays under a site that allows 12 API calls a second: the run finishes without one 429', async () => {
    await withSite({ rateLimit: { calls: 12, windowMs: 1_000 } }, async (site) => {
      const report = await runCourseTest(wholeCourseInput(site.origin));
      expect(checksOf(report)).toEqual(baseline);
      const calls = apiCalls(site);
      expect(calls.length).toBeGreaterThan(24); // enough to need three windows at least
      expect(calls.filter((request) => request.status === 429)).toEqual([]);
    });
  }, 60_000);

  /** Reads the quizzes from a site whose first answer to them is `status` with `headers`: how long it waited. */
  async function afterOneRefusal(status: number, headers: Record<string, string>): Promise<{ waitedMs: number; rateLimitWaits: number }> {
    let refused = 0;
    const times: number[] = [];
    const handler = createBrightspaceHandler(wholeCourseSite(web.origin));
    const server: Server = createServer((req, res) => {
      if (req.url?.endsWith('/quizzes/')) {
        times.push(Date.now());
        if (refused++ === 0) {
          res.writeHead(status, headers);
          return res.end();
        }
      }
      handler.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true } });
    try {
      const session = await BrightspaceSession.open({ origin, username: WHOLE_USER, password: WHOLE_PASSWORD, http });
      const answer = await session.getJson(session.leUrl(WHOLE_ORG_UNIT, 'quizzes/'));
      expect(answer.ok).toBe(true);
      expect(times.length).toBe(2);
      await session.close();
      return { waitedMs: times[1]! - times[0]!, rateLimitWaits: session.rateLimitWaits };
    } finally {
      await http.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('waits as long as Retry-After says before asking again', async () => {
    const { waitedMs, rateLimitWaits } = await afterOneRefusal(429, { 'retry-after': '1' });
    expect(waitedMs).toBeGreaterThanOrEqual(950);
    expect(rateLimitWaits).toBe(1);
  });

  it.each([
    ['after Retry-After', { 'retry-after': '1' }, 950],
    ['after the backoff when Retry-After says nothing usable', { 'retry-after': '1.5' }, 500],
    ['after the backoff when there is no Retry-After', {}, 500],
  ])('asks again %s when a GET meets a passing 503', async (_, headers: Record<string, string>, atLeastMs) => {
    const { waitedMs } = await afterOneRefusal(503, headers);
    expect(waitedMs).toBeGreaterThanOrEqual(atLeastMs);
  });

  it('holds calls until the window refills when the credits left would not cover the calls under way', async () => {
    const pacer = new RateLimitPacer();
    pacer.observe(200, { 'x-rate-limit-remaining': '20', 'x-rate-limit-reset': '1', 'x-request-cost': '10' });
    const started = Date.now();
    const release = await pacer.acquire();
    release();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(pacer.waits).toBe(1);
  });

  it('holds calls after a 429 as Retry-After says (seconds or a date), within two minutes, and 2 s when it says nothing usable', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    const heldFor = (value: string | undefined) => {
      const pacer = new RateLimitPacer();
      pacer.observe(429, value === undefined ? {} : { 'retry-after': value }, now);
      return pacer.state.resetAt - now;
    };
    expect(heldFor('2')).toBe(2_000);
    expect(heldFor(' 3 ')).toBe(3_000);
    expect(heldFor('Sun, 01 Mar 2026 12:00:03 GMT')).toBe(3_000);
    expect(heldFor('Sun, 01 Mar 2026 11:00:00 GMT')).toBe(0);
    expect(heldFor('86400')).toBe(120_000);
    // Not delay-seconds (RFC 9110 10.2.3): the site said nothing usable.
    for (const value of ['1.5', '-1', 'soon', undefined]) expect(heldFor(value), value).toBe(2_000);
  });

  it('lets calls through at once while the bucket is more than half full, and when the site sends no limit', async () => {
    const pacer = new RateLimitPacer();
    for (let i = 0; i < 20; i++) (await pacer.acquire())();
    pacer.observe(200, { 'x-rate-limit-remaining': '49990', 'x-rate-limit-reset': '60', 'x-request-cost': '10' });
    for (let i = 0; i < 20; i++) (await pacer.acquire())();
    expect(pacer.waits).toBe(0);
  });
});

describe('an expired session', () => {
  it.each([
    ['401', '401'],
    ['a 200 login page', 'login-page'],
  ] as const)('answered with %s: signs in again once and carries on', async (_, answer) => {
    await withSite({ sessionExpiry: { afterCalls: 12, answer } }, async (site) => {
      const report = await runCourseTest(wholeCourseInput(site.origin));
      expect(checksOf(report)).toEqual(baseline);
      expect(logins(site)).toBeGreaterThanOrEqual(2);
      const expired = apiCalls(site).filter((request) => request.status === (answer === '401' ? 401 : 200) && !request.withSession);
      expect(expired.length).toBeGreaterThan(0);
    });
  }, 60_000);

  it('on one route only, while the session is fine: signs in again once, then notes the route and goes on', async () => {
    const handler = createBrightspaceHandler(wholeCourseSite(web.origin));
    let logins = 0;
    const server: Server = createServer((req, res) => {
      if (req.url === '/d2l/lp/auth/login/login.d2l') logins++;
      if (req.url?.endsWith('/7100/news/')) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end('{"Errors":[{"Message":"Unauthorized"}]}');
      }
      handler.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const report = await runCourseTest(wholeCourseInput(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      expect(report.notes.map((note) => note.message)).toEqual([
        "This Brightspace account may not read announcements (HTTP 401), so they were not checked. Run CTPO with an account that has the course's instructor or designer role.",
      ]);
      expect(checksOf(report)).toEqual(baseline.filter((check) => !check.startsWith('announcement:')));
      expect(logins).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('that expires again at once: the run fails with a reason, without the password', async () => {
    await withSite({ sessionExpiry: { afterCalls: 1, answer: '401' } }, async (site) => {
      const error = await failure(runCourseTest(wholeCourseInput(site.origin)));
      expect(error.message).toBe('Brightspace kept ending the session during the run, even after CTPO signed in again. Try again later; if it keeps happening, ask the site administrator about session time limits.');
      expect(JSON.stringify(error) + error.message + error.stack).not.toContain(WHOLE_PASSWORD);
    });
  });
});

describe('what a site refuses or lacks', () => {
  it('a 403 after the course has ended: says the access window closed, and when', async () => {
    const course = { ...wholeCourse(web.origin), end: '2026-02-01T04:59:00.000Z', accessClosed: true };
    await withSite({ courses: [course] }, async (site) => {
      const error = await failure(runCourseTest(wholeCourseInput(site.origin)));
      expect(error.code).toBe('course_forbidden');
      expect(error.message).toBe("Brightspace refuses the course with org unit ID 7100: its access window ended on 2026-02-01. Ask the site administrator to extend the course's end date, or to let this account open past courses, then run CTPO again.");
    });
  });

  it('an older site without quizzes, the overview, content objects or release conditions: notes them and checks the rest', async () => {
    const missingRoutes = ['quizzes', 'overview', 'content-objects', 'release-conditions'] as const;
    await withSite({ versions: { le: '1.45', lp: '1.25' }, tools: { missingRoutes: [...missingRoutes] } }, async (site) => {
      const report = await runCourseTest(wholeCourseInput(site.origin));
      expect(report.notes.map((note) => note.message)).toEqual([
        'This site does not offer module and topic descriptions through its API (HTTP 404): an older Brightspace version, or a tool turned off. They were not checked.',
        'This site does not offer quizzes through its API (HTTP 404): an older Brightspace version, or a tool turned off. They were not checked.',
        "This site does not offer release conditions through its API (HTTP 404), so CTPO could not check that they point at items that still exist. Look at each item's restrictions by hand.",
      ]);
      const checks = checksOf(report);
      expect(checks).toContain('assignment:502 grades.missing-item');
      expect(checks).toContain('grade-item:820 grades.weights-not-100');
      expect(checks.some((check) => check.startsWith('quiz:'))).toBe(false);
      expect(checks).not.toContain('topic:113 link.internal-hidden'); // the quiz it opens could not be read
      expect(report.notScanned.map(({ topicId, reason }) => [topicId, reason])).toEqual([
        [113, 'Quiz: its questions are not read by CTPO.'],
        [121, 'Quiz: its questions are not read by CTPO.'],
      ]);
      // Without the quizzes, a grade item only a quiz uses cannot be called unused.
      expect(checks).not.toContain('grade-item:804 grades.unassociated-item');
    });
  });
});
