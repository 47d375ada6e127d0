import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { SAMPLE_PASSWORD, SAMPLE_USER, sampleSite } from '../../fixtures/sample-course.ts';
import { WHOLE_PASSWORD, WHOLE_USER, wholeCourseSite } from '../../fixtures/whole-course.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import { openSqliteDismissalStore } from '../../../api/jobs/sqlite-dismissal-store.ts';
import { subjectFor } from '../../../api/local/identity/identity-provider.ts';
import { LOCAL_POOL_ID } from '../../../api/local/local-config.ts';

const SCRIPT = new URL('../../../scripts/ctpo.ts', import.meta.url).pathname;
let web: LinkHost;
let site: BrightspaceSite;
let out: string;

beforeAll(async () => {
  web = await startLinkHost();
  site = await startBrightspaceSite(sampleSite(web.origin));
  out = await mkdtemp(join(tmpdir(), 'ctpo-command-'));
});
afterAll(async () => {
  await site.close();
  await web.close();
  await rm(out, { recursive: true, force: true });
});

function ctpo(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const credentials = { BRIGHTSPACE_USERNAME: SAMPLE_USER, BRIGHTSPACE_PASSWORD: SAMPLE_PASSWORD };

describe('npm run ctpo', () => {
  it('runs a course test, shows progress and writes the report with its JSON and CSV twins', async () => {
    const result = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme Learning', '--out', out, '--allow-private-targets'], credentials);
    expect(result.stderr).toContain('Private and loopback addresses are allowed for this run');
    expect(result.stderr).toContain('Checking topics: 3/3');
    expect(result.stderr).toMatch(/Accessibility: axe-core in headless Chromium \(.+\)\.\n/);
    expect(result.code).toBe(0);
    const files = (await readdir(out)).sort();
    expect(files).toHaveLength(3);
    const base = files[0]!.replace(/\.csv$/, '');
    expect(base).toMatch(/^acme-learning-6606-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    expect(files).toEqual([`${base}.csv`, `${base}.html`, `${base}.json`]);
    expect(result.stdout).toContain('Found 2 errors and 1 warning in 3 of 3 topics.');
    expect(result.stdout).toContain(join(out, `${base}.csv`));
    const json = JSON.parse(await readFile(join(out, `${base}.json`), 'utf8'));
    expect(json.modules.map((m: { moduleId: number }) => m.moduleId)).toEqual([10]);
    const everything = [result.stdout, result.stderr, ...(await Promise.all(files.map((f) => readFile(join(out, f), 'utf8'))))].join('\n');
    expect(everything).not.toContain(SAMPLE_PASSWORD);
    for (const cookie of site.issuedCookieValues()) expect(everything).not.toContain(cookie);
  }, 120_000);

  it('says when it checks without a browser, and takes the AAA contrast switch', async () => {
    const folder = join(out, 'no-browser');
    const result = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--out', folder, '--allow-private-targets', '--enhanced-contrast'], { ...credentials, CTPO_CHROMIUM: 'off' });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Accessibility: no Chromium found, so axe-core runs without a browser \(jsdom\): colour contrast and \d+ other rules are not checked\./);
    const json = JSON.parse(await readFile(join(folder, (await readdir(folder)).find((f) => f.endsWith('.json'))!), 'utf8'));
    expect(json.accessibility).toMatchObject({ mode: 'jsdom', enhancedContrast: true });
    expect(json.accessibility.notRun).toEqual(expect.arrayContaining(['color-contrast', 'color-contrast-enhanced']));
  }, 120_000);

  it('never takes credentials from the command line', async () => {
    const result = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', 'all', '--client', 'A', '--out', out, '--password', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Credentials are never taken from the command line.');
  });

  it('asks for credentials it has no terminal for, with a clear message', async () => {
    const result = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', 'all', '--client', 'A', '--out', out, '--allow-private-targets']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('set BRIGHTSPACE_USERNAME and BRIGHTSPACE_PASSWORD');
  });

  it('explains bad arguments', async () => {
    const missing = await ctpo(['--site', site.origin]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing --org-unit, --modules, --client. --list-modules shows the module ids and titles.');
    const noFolder = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'A']);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toContain('Missing --out DIR (the folder for the report files), or --data DIR');
    const unknown = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', 'all', '--client', 'A', '--out', out, '--colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--colour'");
    expect(unknown.stderr).toContain('See --help for the options.');
    const scopes = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', 'all', '--client', 'A', '--out', out, '--scopes', 'quizzes,homework']);
    expect(scopes.code).toBe(2);
    expect(scopes.stderr).toContain('--scopes must be "all" or some of assignments, quizzes, discussions, announcements, overview, gradebook, separated by commas.');
  });

  it('holds --org-unit and --modules to the run’s input rules, as the API does', async () => {
    const orgUnit = await ctpo(['--site', site.origin, '--org-unit', '0', '--modules', '10', '--client', 'A', '--out', out]);
    expect(orgUnit.code).toBe(2);
    expect(orgUnit.stderr).toContain('--org-unit must be a whole number greater than 0. It is the number in the course');
    const zero = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '0', '--client', 'A', '--out', out]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--modules must be "all", module ids or module titles separated by commas');
    const many = Array.from({ length: 2001 }, (_, index) => index + 1).join(',');
    const tooMany = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', many, '--client', 'A', '--out', out]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('--modules lists too many modules: at most 2,000.');
  });

  it('reads the course-wide items --scopes names', async () => {
    const whole = await startBrightspaceSite(wholeCourseSite(web.origin));
    const folder = await mkdtemp(join(tmpdir(), 'ctpo-command-scopes-'));
    try {
      const args = ['--site', whole.origin, '--org-unit', '7100', '--modules', 'all', '--client', 'Acme', '--out', folder, '--allow-private-targets'];
      const env = { BRIGHTSPACE_USERNAME: WHOLE_USER, BRIGHTSPACE_PASSWORD: WHOLE_PASSWORD };
      const some = await ctpo([...args, '--scopes', 'announcements, overview'], env);
      expect(some.code).toBe(0);
      const json = (name: string) => readFile(join(folder, name), 'utf8').then((text) => JSON.parse(text) as { scopes: string[]; items: { itemType: string }[] });
      const first = await json((await readdir(folder)).find((name) => name.endsWith('.json'))!);
      expect(first.scopes).toEqual(['announcements', 'overview']);
      expect(new Set(first.items.filter((item) => !['assignment', 'quiz'].includes(item.itemType)).map((item) => item.itemType))).toEqual(new Set(['announcement', 'course']));
      await rm(folder, { recursive: true, force: true });
      const all = await ctpo([...args, '--scopes', 'all'], env);
      expect(all.code).toBe(0);
      const second = await json((await readdir(folder)).find((name) => name.endsWith('.json'))!);
      expect(second.scopes).toEqual(['assignments', 'quizzes', 'discussions', 'announcements', 'overview', 'gradebook']);
      expect(second.items.some((item) => item.itemType === 'grade-item')).toBe(true);
    } finally {
      await whole.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('exits non-zero with the reason when the run fails', async () => {
    const result = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', 'all', '--client', 'A', '--out', out, '--allow-private-targets'], {
      ...credentials,
      BRIGHTSPACE_PASSWORD: 'wrong-password',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ctpo: Brightspace did not accept this user name and password. Check them and try again.');
    const guarded = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', 'all', '--client', 'A', '--out', out], credentials);
    expect(guarded.code).toBe(1);
    // The error names the flag that fixes it, before any credential is asked for.
    expect(guarded.stderr).toContain('ctpo: The address must start with https://. Use --allow-private-targets for a site on this machine or a private network.');
    const noCredentials = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', 'all', '--client', 'A', '--out', out]);
    expect(noCredentials.stderr).toContain('Use --allow-private-targets');
  }, 120_000);

  it('speaks the language of --language and refuses one it does not have', async () => {
    const french = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--out', out, '--allow-private-targets', '--language', 'fr-FR'], {
      ...credentials,
      BRIGHTSPACE_PASSWORD: 'wrong-password',
    });
    expect(french.code).toBe(1);
    expect(french.stderr).toContain('Connexion\u00a0: 0/1');
    expect(french.stderr).toContain("ctpo: Brightspace n’a pas accepté ce nom d’utilisateur et ce mot de passe.");
    const unknown = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--out', out, '--language', 'xx']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--language must be one of ar, cy, da');
  }, 120_000);

  it('lists the course\'s modules, nested, with their ids, and exits', async () => {
    const result = await ctpo(['--site', site.origin, '--org-unit', '6606', '--list-modules', '--allow-private-targets'], credentials);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toContain('10  Welcome');
    expect(lines).toContain('20  Week 1: Cells');
    // A sub-module is indented under its module.
    expect(lines.some((line) => /^\s*\d+ {4}\S/.test(line))).toBe(true);
    expect(result.stdout).not.toContain('Found');
  });

  it('takes modules by title, exact and in any case, and refuses a title it cannot find, naming the candidates', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ctpo-command-titles-'));
    try {
      const byTitle = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', 'welcome', '--client', 'Acme', '--out', folder, '--allow-private-targets'], credentials);
      expect(byTitle.code).toBe(0);
      const json = JSON.parse(await readFile(join(folder, (await readdir(folder)).find((name) => name.endsWith('.json'))!), 'utf8')) as { modules: { moduleId: number }[] };
      expect(json.modules[0]?.moduleId).toBe(10);
      const unknown = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', 'Week', '--client', 'Acme', '--out', folder, '--allow-private-targets'], credentials);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('--modules: no module is called "Week". Did you mean "Week 1: Cells" (id 20), "Week 2" (id 30)');
      expect(unknown.stderr).toContain('--list-modules lists them all.');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('with --data compares with the last run and applies the dismissals kept there, and records the run for the app', async () => {
    const data = await mkdtemp(join(tmpdir(), 'ctpo-command-data-'));
    try {
      const args = ['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--data', data, '--allow-private-targets'];
      const first = await ctpo(args, credentials);
      expect(first.code).toBe(0);
      const jobs = openSqliteJobStore({ path: join(data, 'jobs.sqlite') });
      const dismissals = openSqliteDismissalStore({ path: join(data, 'jobs.sqlite') });
      try {
        // Recorded as the app's local user's run, with its report in the data folder.
        const owner = subjectFor(LOCAL_POOL_ID, 'qa@example.com');
        const [run] = (await jobs.listByOwner(owner, { limit: 10 })).jobs;
        expect(run).toMatchObject({ status: 'SUCCEEDED', client: 'Acme', siteUrl: site.origin, orgUnitId: 6606, modules: [10] });
        expect(first.stdout).toContain(join(data, 'reports', `${run!.filename}.html`));
        const report = JSON.parse(await readFile(join(data, 'reports', `${run!.filename}.json`), 'utf8')) as { findings: { fingerprint: string }[] };
        await dismissals.put(owner, { siteUrl: site.origin, orgUnitId: 6606 }, { fingerprint: report.findings[0]!.fingerprint, by: 'qa@example.com', at: new Date().toISOString() });

        const second = await ctpo(args, credentials);
        expect(second.code).toBe(0);
        expect(second.stdout).toMatch(/0 findings are new, 0 were fixed and \d+ (is|are) still open\./);
        const [latest] = (await jobs.listByOwner(owner, { limit: 10 })).jobs;
        expect(latest!.summary?.comparison).toMatchObject({ new: 0, fixed: 0, dismissed: 1, comparedOn: { all: true } });
        const compared = JSON.parse(await readFile(join(data, 'reports', `${latest!.filename}.json`), 'utf8')) as { dismissed: { fingerprint: string }[]; reuse?: { checked: number; reused: number } };
        expect(compared.dismissed.map((finding) => finding.fingerprint)).toEqual([report.findings[0]!.fingerprint]);
        // The unchanged pages' verdicts were kept in the data folder by the first run and reused.
        expect(compared.reuse?.checked).toBe(0);
        expect(compared.reuse?.reused).toBeGreaterThan(0);

        // --full reuses nothing, and finds the same.
        const full = await ctpo([...args, '--full'], credentials);
        expect(full.code).toBe(0);
        expect(full.stdout).toMatch(/0 findings are new, 0 were fixed and \d+ (is|are) still open\./);
        const [fullRun] = (await jobs.listByOwner(owner, { limit: 10 })).jobs;
        const fullReport = JSON.parse(await readFile(join(data, 'reports', `${fullRun!.filename}.json`), 'utf8')) as { reuse?: { checked: number; reused: number } };
        expect(fullReport.reuse).toMatchObject({ reused: 0, checked: compared.reuse!.reused });
      } finally {
        jobs.close();
        dismissals.close();
      }
      // Without --data, it says the run was not compared.
      const alone = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--out', data, '--allow-private-targets'], credentials);
      expect(alone.stdout).toContain('Not compared with earlier runs and no dismissals applied: give --data');
      const fullAlone = await ctpo(['--site', site.origin, '--org-unit', '6606', '--modules', '10', '--client', 'Acme', '--out', data, '--full'], credentials);
      expect(fullAlone.code).toBe(2);
      expect(fullAlone.stderr).toContain('--full and --link-max-age only apply with --data DIR');
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  }, 180_000);
});
