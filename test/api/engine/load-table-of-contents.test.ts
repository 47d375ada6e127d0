import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../api/errors.ts';
import { loadTableOfContents } from '../../../api/engine/load-table-of-contents.ts';
import { startBrightspaceSite, type BrightspaceSite, type SiteModel } from '../../fixtures/brightspace-site.ts';

const PASSWORD = 'Correct-Horse-7431!';

function model(overrides: Partial<SiteModel> = {}): SiteModel {
  return {
    login: 'form',
    users: [{ username: 'qa.tester', password: PASSWORD }, { username: 'outsider', password: PASSWORD }],
    courses: [
      {
        orgUnitId: 6606,
        name: 'Biology 101',
        code: 'BIO101',
        forbiddenFor: ['outsider'],
        modules: [
          {
            id: 10,
            title: 'Welcome',
            topics: [{ id: 101, title: 'Overview', kind: 'html', fileName: 'overview.html', html: '<p>Hi</p>' }],
            modules: [{ id: 11, title: 'Before you start', topics: [] }],
          },
          { id: 20, title: 'Week 1', raw: { Description: undefined, SortOrder: undefined } },
        ],
      },
    ],
    ...overrides,
  };
}

let site: BrightspaceSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function load(siteModel: SiteModel, input: { username?: string; password?: string; orgUnitId?: number } = {}) {
  site = await startBrightspaceSite(siteModel);
  return loadTableOfContents({
    siteUrl: `${site.origin}/d2l/home`,
    username: input.username ?? 'qa.tester',
    password: input.password ?? PASSWORD,
    orgUnitId: input.orgUnitId ?? 6606,
    allowPrivateTargets: true,
  });
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('loadTableOfContents', () => {
  it('signs in with the form, reads the toc with ignoreDateRestrictions and signs out', async () => {
    const toc = await load(model());
    expect(toc.Modules.map((m) => [m.ModuleId, m.Title])).toEqual([
      [10, 'Welcome'],
      [20, 'Week 1'],
    ]);
    expect(toc.Modules[0]?.Modules?.[0]?.Title).toBe('Before you start');
    expect(toc.Modules[0]?.Topics?.[0]).toMatchObject({ TopicId: 101, Title: 'Overview', TypeIdentifier: 'File' });
    const paths = site!.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('GET /d2l/api/le/1.91/6606/content/toc?ignoreDateRestrictions=true');
    expect(paths).toContain('GET /d2l/api/lp/1.50/users/whoami');
    expect(paths.at(-1)).toBe('GET /d2l/logout');
    expect(site!.activeSessions()).toBe(0);
  });

  it('falls back to the older toc parameter on sites older than LE 1.67', async () => {
    const toc = await load(model({ versions: { le: '1.60', lp: '1.30' } }));
    expect(toc.Modules).toHaveLength(2);
    const tocRequests = site!.requests.filter((r) => r.path.includes('/content/toc'));
    expect(tocRequests.map((r) => r.path)).toEqual(['/d2l/api/le/1.60/6606/content/toc?ignoreModuleDateRestrictions=true']);
  });

  it('reports wrong credentials as such', async () => {
    const error = await failure(load(model(), { password: 'wrong-password' }));
    expect(error.code).toBe('login_failed');
    expect(error.message).toBe('Brightspace did not accept this user name and password. Check them and try again.');
  });

  it('adds a single sign-on hint when the site also offers it', async () => {
    const error = await failure(load(model({ login: 'form-and-sso' }), { password: 'wrong-password' }));
    expect(error.code).toBe('login_failed');
    expect(error.message).toContain('This site also offers single sign-on');
  });

  it('signs in on a site with both a form and single sign-on', async () => {
    const toc = await load(model({ login: 'form-and-sso' }));
    expect(toc.Modules).toHaveLength(2);
  });

  it('refuses a site that only offers single sign-on, without posting the password', async () => {
    const error = await failure(load(model({ login: 'sso-only' })));
    expect(error.code).toBe('sso_only');
    expect(error.message).toContain('single sign-on');
    expect(site!.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('refuses a site whose login page sends people to an identity provider', async () => {
    const error = await failure(load(model({ login: 'redirect-to-idp' })));
    expect(error.code).toBe('sso_only');
  });

  it('refuses an account with two-step verification', async () => {
    const error = await failure(load(model({ login: 'two-factor' })));
    expect(error.code).toBe('two_factor_required');
    expect(error.message).toBe(
      'This Brightspace account asks for a two-step verification code at sign-in, which CTPO cannot enter. Use an account without two-step verification.',
    );
  });

  it('says when the course does not exist or the account cannot open it', async () => {
    expect((await failure(load(model(), { orgUnitId: 999 }))).code).toBe('course_not_found');
    await site!.close();
    expect((await failure(load(model(), { username: 'outsider' }))).code).toBe('course_forbidden');
  });

  it('says when the address is not a Brightspace site', async () => {
    const error = await failure(load(model({ versions: null })));
    expect(error.code).toBe('site_error');
    expect(error.message).toContain('does not answer like a Brightspace site');
  });

  it('says when the site cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(
      loadTableOfContents({ siteUrl: `http://127.0.0.1:${port}`, username: 'a', password: 'b', orgUnitId: 1, allowPrivateTargets: true }),
    );
    expect(error.code).toBe('site_unreachable');
    expect(error.message).toBe(`127.0.0.1:${port} refused the connection. Check the Client Site URL, or try again later.`);
  });

  it('refuses a loopback site without the local-use switch, before any request', async () => {
    site = await startBrightspaceSite(model());
    const error = await failure(
      loadTableOfContents({ siteUrl: site.origin, username: 'qa.tester', password: PASSWORD, orgUnitId: 6606, allowPrivateTargets: false }),
    );
    expect(error.code).toBe('invalid_input'); // http is refused first: the site must be https
    const https = await failure(
      loadTableOfContents({ siteUrl: 'https://127.0.0.1/', username: 'qa.tester', password: PASSWORD, orgUnitId: 6606, allowPrivateTargets: false }),
    );
    expect(https.code).toBe('address_not_allowed');
    expect(site.requests).toHaveLength(0);
  });

  it('refuses a site whose name resolves to a private address', async () => {
    const error = await failure(
      loadTableOfContents({
        siteUrl: 'https://school.example.com',
        username: 'qa.tester',
        password: PASSWORD,
        orgUnitId: 6606,
        allowPrivateTargets: false,
        resolve: async () => [{ address: '10.0.0.5', family: 4 }],
      }),
    );
    expect(error.code).toBe('address_not_allowed');
    expect(error.message).toBe('school.example.com is a private, local or reserved network address. CTPO only visits public websites.');
  });

  it('holds a public site to https even with the local switch on: the switch is for a site on this machine or its network', async () => {
    const error = await failure(
      loadTableOfContents({
        siteUrl: 'http://school.example.com',
        username: 'qa.tester',
        password: PASSWORD,
        orgUnitId: 6606,
        allowPrivateTargets: true,
        resolve: async () => [{ address: '93.184.215.14', family: 4 }],
        // Were http let through, the reader would stop here rather than connect to that address.
        signal: AbortSignal.abort(),
      }),
    );
    expect(error.code).toBe('invalid_input');
    expect(error.message).toMatch(/https/);
  });

  it('refuses bad input with a plain message', async () => {
    const base = { siteUrl: 'https://school.example.com', username: 'a', password: 'b', orgUnitId: 1, allowPrivateTargets: false };
    expect((await failure(loadTableOfContents({ ...base, orgUnitId: 0 }))).message).toContain('Org Unit ID');
    expect((await failure(loadTableOfContents({ ...base, orgUnitId: 1.5 }))).code).toBe('invalid_input');
    expect((await failure(loadTableOfContents({ ...base, username: ' ' }))).message).toBe('The Brightspace Username is missing.');
    expect((await failure(loadTableOfContents({ ...base, password: '' }))).message).toBe('The Brightspace Password is missing.');
    expect((await failure(loadTableOfContents({ ...base, siteUrl: 'school' }))).code).toBe('invalid_input');
  });

  it('never puts the password or the session cookies in an error', async () => {
    const messages: string[] = [];
    const cookies: string[] = [];
    for (const variant of ['form', 'form-and-sso', 'sso-only', 'two-factor'] as const) {
      for (const password of [PASSWORD, 'wrong-password']) {
        try {
          await load(model({ login: variant }), { password });
        } catch (error) {
          messages.push(`${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).stack)}`);
        }
        cookies.push(...site!.issuedCookieValues());
        await site!.close();
        site = undefined;
      }
    }
    expect(messages.length).toBe(6); // every variant but a good sign-in fails
    expect(cookies.length).toBeGreaterThanOrEqual(10);
    for (const text of messages) {
      expect(text).not.toContain(PASSWORD);
      for (const cookie of cookies) expect(text).not.toContain(cookie);
    }
  });
});
