// `npm run ctpo -- --protocol FILE`: the run scored by the file's protocol in the JSON twin, the
// HTML and the CSV, the score printed; a protocol that is wrong refused before anything is asked
// for; with --data, an answer given to a manual item carried into the next run's report.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { SAMPLE_PASSWORD, SAMPLE_USER, sampleSite } from '../../fixtures/sample-course.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import { openSqliteProtocolStore } from '../../../api/jobs/sqlite-protocol-store.ts';
import { itemKeyOf } from '../../../api/protocol/score-protocol.ts';
import type { Report } from '../../../api/report/model.ts';

const SCRIPT = new URL('../../../scripts/ctpo.ts', import.meta.url).pathname;
let web: LinkHost;
let site: BrightspaceSite;
let dir: string;

// The sample course's module 10 has a placeholder (error), a video without captions (error) and
// two topics with the same title (warning).
const PROTOCOL = {
  name: 'Acme launch checklist',
  version: 4,
  items: [
    { id: 'finished', title: 'No placeholder text', checks: ['content.*'], weight: 2 },
    { id: 'captions', title: 'Videos have captions', checks: ['media.no-captions'], weight: 1, allow: 1 },
    { id: 'titles', title: 'Titles are distinct', checks: ['structure.duplicate-title'], weight: 1, minSeverity: 'error' },
    { id: 'contact', title: 'Instructor contact information is correct', manual: true, weight: 1 },
  ],
};

beforeAll(async () => {
  web = await startLinkHost();
  site = await startBrightspaceSite(sampleSite(web.origin));
  dir = await mkdtemp(join(tmpdir(), 'ctpo-protocol-'));
  await writeFile(join(dir, 'protocol.json'), JSON.stringify(PROTOCOL));
});
afterAll(async () => {
  await site?.close();
  await web?.close();
  await rm(dir, { recursive: true, force: true });
});

function ctpo(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { env: { PATH: process.env.PATH ?? '', CTPO_CHROMIUM: 'off', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const credentials = { BRIGHTSPACE_USERNAME: SAMPLE_USER, BRIGHTSPACE_PASSWORD: SAMPLE_PASSWORD };
const statuses = (report: Report) => report.protocol!.items.map((item) => [item.id, item.status]);

describe('npm run ctpo -- --protocol FILE', () => {
  it('scores the run by the file, writes the protocol in the twins and prints the score', async () => {
    const out = join(dir, 'out');
    const result = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--out', out, '--allow-private-targets', '--protocol', join(dir, 'protocol.json')], credentials);
    expect(result.stderr).not.toContain('ctpo:');
    expect(result.code).toBe(0);
    // finished fails (2), captions and titles pass (1 + 1), contact needs a person: 2 / 4.
    expect(result.stdout).toContain('Acme launch checklist, version 4: Readiness score: 50 of 100. 2 passed, 1 failed, 1 need a person, 0 not applicable.');
    const files = (await readdir(out)).sort();
    const report = JSON.parse(await readFile(join(out, files.find((file) => file.endsWith('.json'))!), 'utf8')) as Report;
    expect(report.protocol).toMatchObject({ name: 'Acme launch checklist', version: 4, score: 50 });
    expect(statuses(report)).toEqual([
      ['finished', 'fail'],
      ['captions', 'pass'],
      ['titles', 'pass'],
      ['contact', 'needs-person'],
    ]);
    expect(report.protocol!.items[0]!.findings).toEqual(report.findings.filter((finding) => finding.check === 'content.placeholder').map((finding) => finding.fingerprint));
    expect(await readFile(join(out, files.find((file) => file.endsWith('.html'))!), 'utf8')).toContain('<section id="protocol"');
    expect(await readFile(join(out, files.find((file) => file.endsWith('.csv'))!), 'utf8')).toContain(',finished,Fail,');
  });

  it('refuses a protocol that names a check that does not exist, before asking for anything', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ ...PROTOCOL, items: [...PROTOCOL.items, { id: 'typo', title: 'Typo', checks: ['link.brokn'] }] }));
    const result = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--out', join(dir, 'never'), '--allow-private-targets', '--protocol', bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`ctpo: --protocol ${bad}: Item "typo": there is no check "link.brokn".`);
    await expect(readdir(join(dir, 'never'))).rejects.toThrow();
    const missing = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--out', join(dir, 'never'), '--protocol', join(dir, 'nowhere.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('it cannot be read (ENOENT)');
  });

  it('with --data, carries an answer to a manual item into the next run of the course', async () => {
    const data = join(dir, 'data');
    const args = ['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--data', data, '--allow-private-targets', '--protocol', join(dir, 'protocol.json')];
    const first = await ctpo(args, credentials);
    expect(first.code).toBe(0);
    const jobs = openSqliteJobStore({ path: join(data, 'jobs.sqlite') });
    const protocols = openSqliteProtocolStore({ path: join(data, 'jobs.sqlite') });
    try {
      const [job] = await jobs.listByStatus(['SUCCEEDED']);
      const contact = PROTOCOL.items[3]!;
      await protocols.putAnswer(job!.owner, { siteUrl: job!.siteUrl, orgUnitId: 6606 }, { itemId: 'contact', itemKey: itemKeyOf(contact), status: 'pass', note: 'Checked with the dean', by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' }, job!.id);
    } finally {
      jobs.close();
      protocols.close();
    }
    const second = await ctpo(args, credentials);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Readiness score: 60 of 100. 3 passed, 1 failed, 0 need a person');
    const reportFile = second.stdout.split('\n').find((line) => line.endsWith('.json'))!;
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as Report;
    expect(report.protocol!.items[3]).toMatchObject({ id: 'contact', status: 'pass', answer: { status: 'pass', note: 'Checked with the dean', by: 'qa@example.com' } });
  });
});
