// POST /api/toc through the real local server: a user may load only a few tables of contents at
// once, and a large one is parsed and written in a worker thread, never on the serving thread.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { normalizeTocText } from '../../../api/brightspace/toc-json.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import { startLocalStack } from '../../../api/local/local-stack.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { startBrightspaceSite, tocOf, type BrightspaceSite, type CourseModel } from '../../fixtures/brightspace-site.ts';
import { httpsClient, signIn } from '../local/support.ts';
import type { HttpsClient } from '../local/support.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const users = [{ email: 'a@example.com', password: 'pw-a' }, { email: 'b@example.com', password: 'pw-b' }];

// A course whose table of contents is about 8 MB: long descriptions on 4 000 topics.
const bigCourse: CourseModel = {
  orgUnitId: 6606,
  name: 'Big course',
  code: 'BIG',
  modules: Array.from({ length: 100 }, (_, m) => ({
    id: 1000 + m,
    title: `Module ${m + 1}`,
    topics: Array.from({ length: 40 }, (_, t) => ({
      id: 100_000 + m * 100 + t,
      title: `Topic ${t + 1}`,
      kind: 'link' as const,
      url: `https://example.com/${m}/${t}`,
      raw: { Description: { Text: 'Read this. '.repeat(100), Html: `<p>${'Read this. '.repeat(100)}</p>` } },
    })),
  })),
};

let dir: string;
let stack: LocalStack;
let client: HttpsClient;
let tokens: string[] = [];
let site: BrightspaceSite;
// A site that keeps every request waiting until told to answer (the version list), or refuses.
let slowSite: Server;
let slowOrigin: string;
const waiting: ServerResponse[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ctpo-toc-'));
  site = await startBrightspaceSite({ login: 'form', users: [{ username: 'qa', password: 'pw-qa' }], courses: [bigCourse] });
  slowSite = createServer((req, res) => {
    if (req.url === '/d2l/api/versions/') waiting.push(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => slowSite.listen(0, '127.0.0.1', resolve));
  slowOrigin = `http://127.0.0.1:${(slowSite.address() as AddressInfo).port}`;
  stack = await startLocalStack({ dataDir: dir, port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1', webDist: null, users, useMkcert: false, log: () => undefined });
  client = httpsClient(stack.ca);
  tokens = [];
  for (const user of users) tokens.push((await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, ...user })).access_token);
});

afterAll(async () => {
  for (const res of waiting) res.destroy();
  await stack?.close();
  await client?.close();
  await site?.close();
  slowSite?.closeAllConnections();
  await new Promise((resolve) => slowSite?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function loadToc(token: string, siteUrl: string, signal?: AbortSignal) {
  return client.fetch(`${stack.origin}/api/toc`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ORG_UNIT_ID: 6606, CLIENT_URL: siteUrl, USER_NAME: 'qa', PASSWORD: 'pw-qa' }),
    signal,
  });
}

/** Resolves once the slow site holds this many requests. */
async function slowSiteHolds(count: number): Promise<void> {
  while (waiting.length < count) await new Promise((resolve) => slowSite.once('request', resolve));
}

describe('POST /api/toc', () => {
  it('lets a user load two tables of contents at once, answers a third 429, and takes one again once a load ends', async () => {
    const first = new AbortController();
    const second = new AbortController();
    const pending = [loadToc(tokens[0]!, slowOrigin, first.signal).catch(() => undefined), loadToc(tokens[0]!, slowOrigin, second.signal).catch(() => undefined)];
    await slowSiteHolds(2);

    const third = await loadToc(tokens[0]!, slowOrigin);
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({ code: 'too_many_requests', message: 'You are already loading 2 tables of contents. Wait for one to finish, then try again.' });
    // Another user is not held up by the first one's loads.
    const ofB = loadToc(tokens[1]!, slowOrigin);
    await slowSiteHolds(3);
    waiting[2]!.writeHead(404).end();
    expect((await ofB).status).toBe(502);

    // The site answers the first load: its slot is free again.
    waiting[0]!.writeHead(404).end();
    await pending[0];
    const again = loadToc(tokens[0]!, slowOrigin);
    await slowSiteHolds(4);
    waiting[3]!.writeHead(404).end();
    expect((await again).status).toBe(502);
    second.abort();
    await pending[1];
  });

  it('parses and writes a large table of contents in a worker thread, with the same answer as in place', async () => {
    const workers: string[] = [];
    const onWorker = (worker: Worker) => workers.push((worker as Worker & { threadName?: string }).threadName ?? 'worker');
    process.on('worker', onWorker);
    try {
      const answer = await loadToc(tokens[0]!, site.origin);
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text.length).toBeGreaterThan(4_000_000);
      const inPlace = normalizeTocText(JSON.stringify(tocOf(bigCourse)));
      expect(inPlace.ok && JSON.parse(inPlace.json)).toEqual(JSON.parse(text));
      expect(workers.length).toBe(1);
    } finally {
      process.off('worker', onWorker);
    }
  });
});
