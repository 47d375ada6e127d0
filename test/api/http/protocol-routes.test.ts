// /api/protocols as the app meets it: the real local server over HTTPS, real tokens, the real SQLite
// stores and real runs of a Brightspace-like course. A protocol is saved for a client (a wrong one
// refused, naming what to change, and nothing saved), a run of that client is scored by it, a manual
// item is answered, sign-off is refused while an item fails or needs a person, the next run carries
// the answer, and a run with every item decided is marked ready, in its report and in Recent runs.
// Another user sees and changes none of it.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import { jobsAnswer } from '../../../api/http/contract.ts';
import { protocolsAnswer, runProtocolAnswer } from '../../../api/http/protocol-contract.ts';
import { DEFAULT_PROTOCOL } from '../../../api/protocol/default-protocol.ts';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { SAMPLE_PASSWORD, SAMPLE_USER, sampleSite } from '../../fixtures/sample-course.ts';
import { httpsClient, sendJson, signIn, startTestStack } from '../local/support.ts';
import type { HttpsClient, SendOptions, Sent, SignInSetup } from '../local/support.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let dir: string;
let stack: LocalStack;
let client: HttpsClient;
let web: LinkHost;
let site: BrightspaceSite;
let tokenA: string;
let tokenB: string;
const chromium = process.env.CTPO_CHROMIUM;

const users = ['a@example.com', 'b@example.com'].map((email) => ({ email, password: 'pw-' + email }));
const setupFor = (email: string): SignInSetup => ({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, email, password: 'pw-' + email });
const call = (method: string, path: string, options: SendOptions = {}): Promise<Sent> => sendJson(client, method, `${stack.origin}${path}`, options);

// The sample course's module 10: a placeholder (error), a video without captions (error), two topics
// with the same title (warning).
const PROTOCOL = {
  name: 'Acme launch checklist',
  version: 1,
  items: [
    { id: 'captions', title: 'Videos have captions', checks: ['media.*'], weight: 2 },
    { id: 'titles', title: 'Titles are distinct', checks: ['structure.duplicate-title'], minSeverity: 'error' },
    { id: 'contact', title: 'Instructor contact information is correct', manual: true },
  ],
};

beforeAll(async () => {
  // The runs' processes check accessibility without a browser: these tests are about the protocol.
  process.env.CTPO_CHROMIUM = 'off';
  web = await startLinkHost();
  site = await startBrightspaceSite(sampleSite(web.origin));
  ({ dataDir: dir, stack } = await startTestStack('ctpo-protocol-api-', { users, allowPrivateTargets: true, poolSize: 1 }));
  client = httpsClient(stack.ca);
  tokenA = (await signIn(setupFor('a@example.com'))).access_token;
  tokenB = (await signIn(setupFor('b@example.com'))).access_token;
});

afterAll(async () => {
  if (chromium === undefined) delete process.env.CTPO_CHROMIUM;
  else process.env.CTPO_CHROMIUM = chromium;
  await stack?.close();
  await client?.close();
  await site?.close();
  await web?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function runOnce(clientLabel: string): Promise<string> {
  const started = await call('POST', '/api/run-tests', {
    token: tokenA,
    body: { USER_NAME: SAMPLE_USER, PASSWORD: SAMPLE_PASSWORD, CLIENT_URL: site.origin, ORG_UNIT_ID: 6606, CLIENT_NAME: clientLabel, MODULES: [10] },
  });
  expect(started.status).toBe(202);
  await stack.runner.idle();
  const id = String(started.body.taskArn);
  expect((await stack.jobs.get(id))?.status).toBe('SUCCEEDED');
  return id;
}

const runPath = (id: string) => `/api/protocols/runs/${encodeURIComponent(id)}`;

describe('/api/protocols', () => {
  it('refuses a protocol with a check id that does not exist, naming it, and saves nothing', async () => {
    const refused = await call('PUT', '/api/protocols', { token: tokenA, body: { client: 'Acme', protocol: { ...PROTOCOL, items: [...PROTOCOL.items, { id: 'typo', title: 'Typo', checks: ['link.brokn'] }] } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 'invalid_input', message: 'Item "typo": there is no check "link.brokn". Use a check id of the catalogue, or a family such as a11y.*.' });
    const listed = protocolsAnswer.parse((await call('GET', '/api/protocols', { token: tokenA })).body);
    expect(listed).toEqual({ protocols: [], default: DEFAULT_PROTOCOL });
    const badClient = await call('PUT', '/api/protocols', { token: tokenA, body: { client: '', protocol: PROTOCOL } });
    expect(badClient.status).toBe(400);
    expect(badClient.body.message).toContain('client must be the client label');
  });

  it('scores a run by its client’s protocol, takes an answer, carries it to the next run and signs off', async () => {
    const saved = await call('PUT', '/api/protocols', { token: tokenA, body: { client: 'Acme', protocol: PROTOCOL } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ client: 'Acme', protocol: PROTOCOL, by: 'a@example.com' });
    expect(protocolsAnswer.parse((await call('GET', '/api/protocols', { token: tokenA })).body).protocols.map((stored) => stored.client)).toEqual(['Acme']);
    expect(protocolsAnswer.parse((await call('GET', '/api/protocols', { token: tokenB })).body).protocols).toEqual([]);

    const first = await runOnce('acme');
    const scored = runProtocolAnswer.parse((await call('GET', runPath(first), { token: tokenA })).body);
    expect(scored.protocol.name).toBe('Acme launch checklist');
    expect(scored.protocol.items.map((item) => item.status)).toEqual(['fail', 'pass', 'needs-person']);
    expect(scored.canSignOff).toBe(false);
    expect((await call('GET', runPath(first), { token: tokenB })).status).toBe(403);

    // Refused while an item fails and one needs a person.
    const early = await call('POST', runPath(first), { token: tokenA });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('The run cannot be marked ready for launch yet: 1 item fails and 1 needs a person.');

    const badAnswer = await call('PUT', runPath(first), { token: tokenA, body: { itemId: 'contact', status: 'yes' } });
    expect(badAnswer.status).toBe(400);
    expect((await call('PUT', runPath(first), { token: tokenA, body: { itemId: 'captions', status: 'pass' } })).body.message).toContain('no item "captions" for a person to answer');
    const answered = runProtocolAnswer.parse((await call('PUT', runPath(first), { token: tokenA, body: { itemId: 'contact', status: 'pass', note: 'Checked with the dean' } })).body);
    expect(answered.protocol.items[2]).toMatchObject({ status: 'pass', answer: { status: 'pass', note: 'Checked with the dean', by: 'a@example.com' } });
    expect(answered.protocol.score).toBe(50);

    // The protocol now allows the captions finding: the next run passes it and carries the answer.
    await call('PUT', '/api/protocols', { token: tokenA, body: { client: 'Acme', protocol: { ...PROTOCOL, version: 2, items: [{ ...PROTOCOL.items[0], allow: 1 }, PROTOCOL.items[1], PROTOCOL.items[2]] } } });
    const second = await runOnce('Acme');
    const next = runProtocolAnswer.parse((await call('GET', runPath(second), { token: tokenA })).body);
    expect(next.protocol).toMatchObject({ version: 2, score: 100 });
    expect(next.protocol.items.map((item) => item.status)).toEqual(['pass', 'pass', 'pass']);
    expect(next.protocol.items[2]?.answer).toMatchObject({ note: 'Checked with the dean' });
    expect(next.canSignOff).toBe(true);

    const ready = runProtocolAnswer.parse((await call('POST', runPath(second), { token: tokenA })).body);
    expect(ready.protocol.ready).toMatchObject({ by: 'a@example.com' });
    const runs = jobsAnswer.parse((await call('GET', '/api/jobs', { token: tokenA })).body).jobs;
    expect(runs.find((job) => job.taskArn === second)?.readyForLaunch).toMatchObject({ by: 'a@example.com' });
    expect(runs.find((job) => job.taskArn === second)?.summary?.protocol).toEqual({ name: 'Acme launch checklist', version: 2, score: 100, items: { pass: 3, fail: 0, person: 0, na: 0 } });
    expect(runs.find((job) => job.taskArn === first)?.readyForLaunch).toBeUndefined();
    // The report says so too.
    const listed = runs.find((job) => job.taskArn === second)!;
    const report = await client.fetch(`${listed.outputUrl!}${listed.filename}.json`);
    expect(((await report.json()) as { protocol: { ready: unknown } }).protocol.ready).toMatchObject({ by: 'a@example.com' });
    const html = await (await client.fetch(`${listed.outputUrl!}${listed.filename}.html`)).text();
    expect(html).toContain('Marked ready for launch by <bdi>a@example.com</bdi> on');
  });

  it('removes a client’s protocol, for its owner only', async () => {
    expect((await call('DELETE', `/api/protocols?client=${encodeURIComponent('ACME')}`, { token: tokenB })).body).toEqual({ client: 'ACME', removed: false });
    expect((await call('DELETE', `/api/protocols?client=${encodeURIComponent('ACME')}`, { token: tokenA })).body).toEqual({ client: 'ACME', removed: true });
    expect(protocolsAnswer.parse((await call('GET', '/api/protocols', { token: tokenA })).body).protocols).toEqual([]);
  });
});
