// A course tested again and again, as a QA user does while a builder fixes it: real runs of the real
// engine in the local stack's worker threads, against a Brightspace-like site whose topics change
// between runs. Each report compares itself with the previous successful run of the course and
// sets the user's dismissed findings apart; the job summary counts the same.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SiteModel } from '../../../api/local/demo-course/brightspace-site.ts';
import type { TopicModel } from '../../../api/local/demo-course/course-model.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import { startLocalStack } from '../../../api/local/local-stack.ts';
import type { LocalStack } from '../../../api/local/local-stack.ts';
import type { Report } from '../../../api/report/model.ts';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { httpsClient, signIn } from '../local/support.ts';
import type { HttpsClient } from '../local/support.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

const USER = { email: 'qa@example.com', password: 'pw-qa' };
const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`;

let web: LinkHost;
let site: BrightspaceSite;
let model: SiteModel;
let dir: string;
let stack: LocalStack;
let client: HttpsClient;
let token: string;

function topic(id: number): TopicModel & { kind: 'html' } {
  const found = model.courses[0]!.modules.flatMap((module) => module.topics ?? []).find((item) => item.id === id);
  if (found?.kind !== 'html') throw new Error(`no HTML topic ${id}`);
  return found;
}

async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await client.fetch(`${stack.origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return JSON.parse(await response.text()) as Record<string, unknown>;
}

/** Runs the whole course as the app does, to the end; the job's status answer and its JSON twin. */
async function runCourse(modules: number[] = [10, 20]): Promise<{ status: Record<string, unknown>; report: Report; filename: string }> {
  const started = await call('POST', '/api/run-tests', { USER_NAME: 'qa', PASSWORD: 'qa-pass', CLIENT_URL: site.origin, ORG_UNIT_ID: 6606, CLIENT_NAME: 'Acme', MODULES: modules });
  await stack.runner.idle();
  const status = await call('GET', `/api/job-status/${encodeURIComponent(started.taskArn as string)}`);
  expect(status.status, JSON.stringify(status)).toBe('SUCCEEDED');
  const filename = started.filename as string;
  return { status, report: JSON.parse(readFileSync(join(dir, 'reports', `${filename}.json`), 'utf8')) as Report, filename };
}

const line = (finding: { check: string; topicId: number | null; status?: string }) => `${finding.check} ${finding.topicId} ${finding.status ?? '-'}`;

beforeAll(async () => {
  web = await startLinkHost();
  model = {
    login: 'form',
    users: [{ username: 'qa', password: 'qa-pass' }],
    courses: [
      {
        orgUnitId: 6606,
        name: 'Biology 101',
        code: 'BIO101',
        modules: [
          {
            id: 10,
            title: 'Week 1',
            topics: [
              { id: 101, title: 'Cells', kind: 'html', fileName: 'cells.html', html: page(`<p>Read <a href="${web.origin}/missing/article">the article</a>.</p><p>TODO: add the lab sheet.</p>`) },
              { id: 102, title: 'Tissues', kind: 'html', fileName: 'tissues.html', html: page(`<p>See <a href="${web.origin}/ok/tissues">the atlas</a>.</p>`) },
            ],
          },
          { id: 20, title: 'Week 2', topics: [{ id: 201, title: 'Organs', kind: 'html', fileName: 'organs.html', html: page(`<p>See <a href="${web.origin}/gone/organs">the organs</a>.</p>`) }] },
        ],
      },
    ],
  };
  site = await startBrightspaceSite(model);
  dir = mkdtempSync(join(tmpdir(), 'ctpo-runs-over-time-'));
  stack = await startLocalStack({ dataDir: dir, port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1', webDist: null, users: [USER], useMkcert: false, log: () => undefined });
  client = httpsClient(stack.ca);
  token = (await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, email: USER.email, password: USER.password })).access_token;
});

afterAll(async () => {
  await stack?.close();
  await client?.close();
  await site?.close();
  await web?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('a course tested again and again', () => {
  let first: Awaited<ReturnType<typeof runCourse>>;

  it('says on the first run that there is nothing to compare with', async () => {
    first = await runCourse();
    expect(first.report.comparison).toEqual({ previous: null, compared: [], firstRead: [], fixed: [], carried: { places: [], findings: [], dismissed: [] } });
    expect(first.report.dismissed).toEqual([]);
    expect(first.report.findings.map(line)).toEqual(['content.placeholder 101 -', 'link.broken 101 -', 'link.broken 201 -']);
    expect((first.status.summary as Record<string, unknown>).comparison).toBeUndefined();
  });

  it('shows a defect fixed between two runs as fixed, a new one as new, the rest as still open', async () => {
    topic(101).html = page(`<p>Read <a href="${web.origin}/ok/article">the article</a>.</p><p>TODO: add the lab sheet.</p>`);
    topic(102).html = page(`<p>See <a href="${web.origin}/ok/tissues">the atlas</a> and <a href="${web.origin}/missing/quiz">the quiz</a>.</p>`);
    const second = await runCourse();

    expect(second.report.comparison?.previous).toEqual({
      filename: first.filename,
      startedAt: first.report.startedAt,
      finishedAt: first.report.finishedAt,
      read: [{ module: 10, title: 'Week 1' }, { module: 20, title: 'Week 2' }],
    });
    expect(second.report.comparison?.fixed.map(line)).toEqual(['link.broken 101 -']);
    expect(second.report.comparison?.fixed[0]?.url).toBe(`${web.origin}/missing/article`);
    expect(second.report.findings.map(line)).toEqual(['content.placeholder 101 open', 'link.broken 102 new', 'link.broken 201 open']);
    expect(second.report.totals.comparison).toEqual({ new: 1, open: 2, fixed: 1, dismissed: 0 });
    expect(second.status.summary).toMatchObject({
      findings: { error: 3 },
      comparison: { new: 1, open: 2, fixed: 1, dismissed: 0, previous: { startedAt: first.report.startedAt }, comparedOn: { all: true, more: 0 } },
    });

    const jobs = (await call('GET', '/api/jobs')).jobs as { filename: string; courseName?: string; summary?: unknown }[];
    expect(jobs.map((job) => job.filename)).toEqual([second.filename, first.filename]);
    expect(jobs[0]).toMatchObject({ courseName: 'Biology 101', summary: { comparison: { new: 1, open: 2, fixed: 1, dismissed: 0 } } });
  });

  it('sets a finding dismissed in between apart, with who and why, out of the counts', async () => {
    const previous = await runCourse();
    const placeholder = previous.report.findings.find((finding) => finding.check === 'content.placeholder')!;
    const dismissed = await call('PUT', '/api/dismissals', { siteUrl: site.origin, orgUnitId: 6606, fingerprint: placeholder.fingerprint, reason: 'The author adds the sheet at launch.' });
    expect(dismissed.by).toBe(USER.email);

    const next = await runCourse();
    expect(next.report.findings.map(line)).toEqual(['link.broken 102 open', 'link.broken 201 open']);
    expect(next.report.dismissed).toEqual([
      expect.objectContaining({ check: 'content.placeholder', fingerprint: placeholder.fingerprint, dismissal: { by: USER.email, at: dismissed.at, reason: 'The author adds the sheet at launch.' } }),
    ]);
    expect(next.report.totals.findings.error).toBe(2);
    expect(next.status.summary).toMatchObject({ findings: { error: 2 }, comparison: { new: 0, fixed: 0, dismissed: 1 } });

    // Restored, it is back in the list and the counts, still open (it never went away).
    await call('DELETE', `/api/dismissals?${new URLSearchParams({ siteUrl: site.origin, orgUnitId: '6606', fingerprint: placeholder.fingerprint }).toString()}`);
    const restored = await runCourse();
    expect(restored.report.findings.map(line)).toContain('content.placeholder 101 open');
    expect(restored.report.dismissed).toEqual([]);
  });

  it('compares only the modules both runs tested, and each module with the last run that tested it', async () => {
    const weekTwo = await runCourse([20]);
    expect(weekTwo.report.comparison?.fixed).toEqual([]);
    expect(weekTwo.report.findings.map(line)).toEqual(['link.broken 201 open']);
    expect(weekTwo.status.summary).toMatchObject({ comparison: { new: 0, open: 1, fixed: 0, comparedOn: { all: false, places: [{ module: 20, title: 'Week 2' }], more: 0 } } });
    const both = await runCourse();
    // Week 1 was not tested last time: it is compared with the run before, so nothing in it is new.
    expect(both.report.findings.map(line)).toEqual(['content.placeholder 101 open', 'link.broken 102 open', 'link.broken 201 open']);
    expect(both.report.totals.comparison).toEqual({ new: 0, open: 3, fixed: 0, dismissed: 0 });
  });
});
