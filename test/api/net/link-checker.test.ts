import { anchorNamesOf } from '../../../api/extract/html.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { LinkChecker } from '../../../api/net/link-checker.ts';
import type { Resolver } from '../../../api/net/address-guard.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';

let web: LinkHost;
const local = { allowPrivateTargets: true, allowHttp: true };

beforeAll(async () => {
  web = await startLinkHost();
});
afterAll(async () => {
  await web.close();
});

async function withChecker<T>(work: (checker: LinkChecker) => Promise<T>, options: { timeoutMs?: number; limits?: ConstructorParameters<typeof LinkChecker>[0]['limits']; resolve?: Resolver; strict?: boolean } = {}): Promise<T> {
  const http = new GuardedHttpClient({ policy: options.strict ? { allowPrivateTargets: false, allowHttp: true } : local, timeoutMs: options.timeoutMs ?? 2_000, resolve: options.resolve });
  try {
    return await work(new LinkChecker({ http, anchorsOf: anchorNamesOf, limits: { backoffMs: 10, ...options.limits } }));
  } finally {
    await http.close();
  }
}

describe('LinkChecker', () => {
  it('classifies answers', async () => {
    const results = await withChecker((checker) =>
      Promise.all(['/ok/a', '/missing/a', '/gone/a', '/error/a', '/forbidden/a', '/bot-wall/a', '/moved/a', '/found/a', '/no-head/a', '/loop/a'].map((path) => checker.check(`${web.origin}${path}`))),
    );
    expect(results.map((r) => [r.outcome, r.status, r.movedTo?.replace(web.origin, '') ?? null])).toEqual([
      ['ok', 200, null],
      ['broken', 404, null],
      ['broken', 410, null],
      ['broken', 500, null],
      ['unverifiable', 403, null],
      ['unverifiable', 403, null],
      ['ok', 200, '/ok/a'],
      ['ok', 200, null],
      ['ok', 200, null],
      ['broken', null, null],
    ]);
    expect(formatMessage(results[3]!.detail)).toBe('The server fails with an error (HTTP 500), also when tried again.');
    expect(formatMessage(results[9]!.detail)).toBe('This address redirects in a loop and never reaches a page.');
  });

  it('checks an address once however often it is asked for', async () => {
    await withChecker(async (checker) => {
      const all = await Promise.all(Array.from({ length: 5 }, () => checker.check(`${web.origin}/slow/50/once`)));
      expect(new Set(all).size).toBe(1);
      expect(web.hits('/slow/50/once')).toBe(1);
      expect([checker.done, checker.total]).toEqual([1, 1]);
    });
  });

  it('waits as long as Retry-After asks, and gives up on a wait too long', async () => {
    await withChecker(async (checker) => {
      const started = Date.now();
      const ok = await checker.check(`${web.origin}/limited/b`);
      expect(ok.outcome).toBe('ok');
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });
    await withChecker(
      async (checker) => {
        const limited = await checker.check(`${web.origin}/always-limited/b`);
        expect(limited).toMatchObject({ outcome: 'unverifiable', status: 429 });
        expect(web.hits('/always-limited/b')).toBe(1); // 1 s is beyond the 0.5 s allowed: no wait at all
      },
      { limits: { maxRetryAfterMs: 500 } },
    );
  });

  it('reads Retry-After strictly: what is not delay-seconds or an HTTP-date is no wait asked for', async () => {
    // The first answer to each address is a 429 with the Retry-After of its query, then 200.
    const seen = new Map<string, number>();
    const server: Server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const count = (seen.get(url.pathname) ?? 0) + 1;
      seen.set(url.pathname, count);
      if (count === 1) res.writeHead(429, { 'retry-after': url.searchParams.get('retry-after') ?? '' }).end();
      else res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const address = (name: string, value: string) => `${origin}/${name}?retry-after=${encodeURIComponent(value)}`;
    try {
      await withChecker(
        async (checker) => {
          // Within the 0.5 s allowed, it waits and asks again; beyond it, it gives up at once. "1.5" is
          // no number of seconds (RFC 9110 10.2.3): the usual backoff applies, and the retry comes.
          const [fraction, past, garbage, tooLong, farDate] = await Promise.all([
            checker.check(address('fraction', '1.5')),
            checker.check(address('past', new Date(Date.now() - 60_000).toUTCString())),
            checker.check(address('garbage', 'soon')),
            checker.check(address('too-long', '1')),
            checker.check(address('far-date', new Date(Date.now() + 3_600_000).toUTCString())),
          ]);
          expect([fraction, past, garbage].map((probe) => probe.outcome)).toEqual(['ok', 'ok', 'ok']);
          expect([seen.get('/fraction'), seen.get('/past'), seen.get('/garbage')]).toEqual([2, 2, 2]);
          expect([tooLong, farDate]).toMatchObject([{ outcome: 'unverifiable', status: 429 }, { outcome: 'unverifiable', status: 429 }]);
          expect([seen.get('/too-long'), seen.get('/far-date')]).toEqual([1, 1]);
        },
        { limits: { maxRetryAfterMs: 500 } },
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('holds back the other requests to a host that answered 429 until its Retry-After has passed', async () => {
    // One at a time to the host: the 429 goes to the first, the second is already under way when it
    // comes, the third waits for the host's pause to end.
    await withChecker(
      async (checker) => {
        const probes = await Promise.all(['/limited/pause', '/ok/pause-2', '/ok/pause-3'].map((path) => checker.check(`${web.origin}${path}`)));
        expect(probes.map((probe) => probe.outcome)).toEqual(['ok', 'ok', 'ok']);
        const refused = web.requests.find((request) => request.path === '/limited/pause')!;
        const held = web.requests.find((request) => request.path === '/ok/pause-3')!;
        expect(held.at - refused.doneAt!).toBeGreaterThanOrEqual(950);
      },
      { limits: { perHost: 1 } },
    );
  });

  it('retries a 5xx with backoff and a timeout, then reports it', async () => {
    await withChecker(async (checker) => {
      expect((await checker.check(`${web.origin}/flaky/2/c`)).outcome).toBe('ok');
      expect(web.hits('/flaky/2/c')).toBe(3);
    });
    await withChecker(
      async (checker) => {
        const hung = await checker.check(`${web.origin}/hang/c`);
        expect(hung).toMatchObject({ outcome: 'unreachable', status: null });
        expect(formatMessage(hung.detail)).toMatch(/did not answer within 0\.2 s\. CTPO tried 2 times\.$/);
        expect(web.hits('/hang/c')).toBe(2);
      },
      { timeoutMs: 200, limits: { retries: 1 } },
    );
  });

  it('reports a refused connection and a missing name as unreachable, without retrying', async () => {
    const noName: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await withChecker(
      async (checker) => {
        const refused = await checker.check(`http://127.0.0.1:${port}/x`);
        expect(refused.outcome).toBe('unreachable');
        expect(formatMessage(refused.detail)).toBe(`127.0.0.1:${port} refused the connection.`);
        const missing = await checker.check('https://no-such-host.example/x');
        expect(missing.outcome).toBe('unreachable');
        expect(formatMessage(missing.detail)).toBe('The name no-such-host.example does not exist in DNS.');
      },
      { resolve: noName },
    );
  });

  it('does not visit private addresses: the link is left for a person to check', async () => {
    const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const port = new URL(web.origin).port;
    await withChecker(
      async (checker) => {
        const result = await checker.check(`http://intranet.example.com:${port}/ok/private`);
        expect(result).toMatchObject({ outcome: 'unverifiable', status: null });
        expect(formatMessage(result.detail)).toContain('private or local network');
        expect(web.hits('/ok/private')).toBe(0);
      },
      { strict: true, resolve: toLoopback },
    );
  });

  /** Servers that answer after 40 ms and count the requests they hold at once, all together. */
  async function countingServers(count: number): Promise<{ origins: string[]; peak: () => number; close: () => void }> {
    let active = 0;
    let peak = 0;
    const servers: Server[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer((_req, res) => {
        active++;
        peak = Math.max(peak, active);
        setTimeout(() => {
          active--;
          res.end('ok');
        }, 40);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
    }
    return {
      origins: servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`),
      peak: () => peak,
      close: () => {
        for (const server of servers) {
          server.closeAllConnections();
          server.close();
        }
      },
    };
  }

  it('keeps to the per-host cap', async () => {
    const servers = await countingServers(1);
    try {
      await withChecker((checker) => Promise.all(Array.from({ length: 20 }, (_, i) => checker.check(`${servers.origins[0]}/page-${i}`))), { limits: { perHost: 3 } });
      expect(servers.peak()).toBe(3);
    } finally {
      servers.close();
    }
  });

  it('keeps to the overall cap across hosts', async () => {
    const servers = await countingServers(3);
    try {
      const probes = await withChecker(
        (checker) => Promise.all(Array.from({ length: 30 }, (_, i) => checker.check(`${servers.origins[i % 3]}/page-${i}`))),
        { limits: { maxConcurrency: 4, perHost: 10 } },
      );
      expect(probes.every((probe) => probe.outcome === 'ok')).toBe(true);
      expect(servers.peak()).toBe(4);
    } finally {
      servers.close();
    }
  });
});

describe('LinkChecker.anchors', () => {
  it('reads a page once for its ids and names however many fragments point into it, and judges only HTML or SVG read whole', async () => {
    const hits = new Map<string, number>();
    const server: Server = createServer((req, res) => {
      hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
      if (req.url === '/page.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<h2 id="one">One</h2><a name="two"></a><template><p id="inert"></p></template><!-- <p id="commented"> -->');
      } else if (req.url === '/icons.svg') {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        res.end('<svg xmlns="http://www.w3.org/2000/svg"><symbol id="star"/></svg>');
      } else if (req.url === '/file.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end('%PDF id="x"');
      } else if (req.url === '/huge.html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<p id="start"></p>${'x'.repeat(6 * 1024 * 1024)}`);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await withChecker(async (checker) => {
        const [page, again, svg, pdf, huge, missing] = await Promise.all([
          checker.anchors(`${origin}/page.html`),
          checker.anchors(`${origin}/page.html`),
          checker.anchors(`${origin}/icons.svg`),
          checker.anchors(`${origin}/file.pdf`),
          checker.anchors(`${origin}/huge.html`),
          checker.anchors(`${origin}/missing.html`),
        ]);
        expect([...page!].sort()).toEqual(['inert', 'one', 'two']);
        expect(again).toBe(page);
        expect([...svg!]).toEqual(['star']);
        expect([pdf, huge, missing]).toEqual([null, null, null]);
        expect(hits.get('/page.html')).toBe(1);
      });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
