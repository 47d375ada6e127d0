// Runs one course test from the command line and writes the HTML report and its JSON and CSV twins:
//   npm run ctpo -- --site URL --org-unit N --modules 1,2|all|TITLE --client NAME --out DIR [--data DIR] [--protocol FILE] [--scopes all|a,b] [--language TAG] [--allow-private-targets]
//   npm run ctpo -- --site URL --org-unit N --list-modules
// With --data (the local stack's data folder), the run is compared with the last run of the course
// and the dismissals kept there, exactly as a run started in the app, and recorded there for the
// app's Recent runs. Every report is scored by a course testing protocol: the one in --protocol FILE,
// else (with --data) the client's saved in the app, else CTPO's default; the score is printed.
// The Brightspace user name and password come from BRIGHTSPACE_USERNAME / BRIGHTSPACE_PASSWORD or a
// prompt (the password is not echoed), never from the command line, where other users of the
// machine and the shell history could read them.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AppError, isAppError } from '../api/errors.ts';
import { loadTableOfContents } from '../api/engine/load-table-of-contents.ts';
import { localSwitchFor, sitePolicy, siteOriginOf } from '../api/brightspace/session.ts';
import { assertAllowedDestination } from '../api/net/address-guard.ts';
import { executeJob } from '../api/jobs/execute-job.ts';
import { createBaselineSource } from '../api/jobs/baseline.ts';
import { createFileReportStore } from '../api/jobs/file-report-store.ts';
import { openSqliteDismissalStore } from '../api/jobs/sqlite-dismissal-store.ts';
import { openSqliteJobStore } from '../api/jobs/sqlite-job-store.ts';
import { openSqliteProtocolStore } from '../api/jobs/sqlite-protocol-store.ts';
import { openSqliteVerdictCache } from '../api/jobs/sqlite-verdict-cache.ts';
import { DEFAULT_PROTOCOL } from '../api/protocol/default-protocol.ts';
import type { Protocol } from '../api/protocol/protocol-schema.ts';
import { withProtocol } from '../api/protocol/score-protocol.ts';
import { parseProtocolText } from '../api/protocol/validate-protocol.ts';
import { reportFilename } from '../api/jobs/report-filename.ts';
import type { JobRecord, JobStore } from '../api/jobs/types.ts';
import { subjectFor } from '../api/local/identity/identity-provider.ts';
import { LOCAL_POOL_ID } from '../api/local/local-config.ts';
import type { Report } from '../api/report/model.ts';
import { formatModuleList, ModuleNameError, resolveModuleNames } from './ctpo-modules.ts';
import { runCourseTest } from '../api/engine/run-course-test.ts';
import { parseMaxAge } from '../api/engine/run-verdicts.ts';
import type { RunProgress } from '../api/engine/progress.ts';
import { COURSE_SCOPES, type CourseScope } from '../api/brightspace/course-scopes.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../api/i18n/languages.ts';
import { courseScopesRule, idTextRule, INPUT_LIMITS, languageRule, moduleIdsRule, orgUnitIdRule } from '../api/engine/run-input-rules.ts';
import { msg, translator } from '../api/i18n/messages.ts';
import { presenterFor, summarySentences } from '../api/report/present.ts';
import { renderCsvReport } from '../api/report/render-csv.ts';
import { renderHtmlReport } from '../api/report/render-html.ts';
import { renderJsonReport } from '../api/report/render-json.ts';
import { accessibilityModeLine } from '../api/a11y/a11y-mode.ts';
import { enhancedContrastFromEnv } from '../api/a11y/a11y-runner.ts';

/** The sign-in of the local stack's default user, whose Recent runs show a run recorded with --data. */
const DEFAULT_APP_USER = 'qa@example.com';

const USAGE = `Usage: npm run ctpo -- --site URL --org-unit N --modules 1,2|all|TITLE --client NAME --out DIR [--data DIR] [--protocol FILE] [--scopes all|a,b] [--language TAG] [--allow-private-targets] [--enhanced-contrast] [--full] [--link-max-age AGE]
       npm run ctpo -- --site URL --org-unit N --list-modules [--allow-private-targets]

  --site URL                 the Brightspace site, e.g. https://school.brightspace.com
  --org-unit N               the course's org unit ID (as in /d2l/home/N)
  --list-modules             list the course's modules (ids and titles, nested) and exit
  --modules 1,2 | all | TITLE
                             modules to test (nested modules included): ids, titles (exact, any
                             case; see --list-modules), both separated by commas, or all
  --client NAME              the client label shown in the report
  --out DIR                  folder for the report files (created if missing)
  --data DIR                 the local stack's data folder (.ctpo for npm start): compare with the
                             last run of the course and apply the dismissals kept there, as the
                             app does, and record the run there for the app's Recent runs; the
                             report is kept there too, so --out is then optional. The run
                             reuses the verdicts kept there of what has not changed since an
                             earlier run of the course, and keeps its own; without --data
                             nothing is reused or kept
  --app-user EMAIL           with --data: whose run it is in the app (default CTPO_LOCAL_EMAIL,
                             else ${DEFAULT_APP_USER})
  --protocol FILE            the course testing protocol to score the run by (JSON, as the app
                             exports it); without it, the client's protocol in --data, else
                             CTPO's default
  --scopes all | a,b         course-wide items to check too: all, or some of
                             ${COURSE_SCOPES.join(', ')}
                             (without it, the modules only, with the activities they link to)
  --language TAG             the language of the report and of the messages: ${LANGUAGES.join(', ')}
                             (default en, US English)
  --allow-private-targets    for a site on this machine or its network only (every address of
                             its host loopback or private, such as the demo course): accept it
                             over http://, and let its pages and links reach loopback and private
                             addresses (the services of this machine and its network); for any
                             other site it changes nothing; also CTPO_ALLOW_PRIVATE_TARGETS=1
  --enhanced-contrast        also check AAA enhanced contrast (7:1); also CTPO_ENHANCED_CONTRAST=1
  --full                     with --data: check everything again, reusing no earlier verdict
                             (what the run checks is still kept for the next)
  --link-max-age AGE         with --data: how long a link that answered well is not asked again:
                             seconds, or 30m, 12h, 1d (default 1d; 0 asks every link); broken,
                             unreachable and redirected links are always asked again

Accessibility is checked in headless Chromium (/usr/bin/chromium, or CTPO_CHROMIUM; off for none);
without one, in jsdom, and colour contrast and the rules that need a browser are not checked.

The user name and password are read from BRIGHTSPACE_USERNAME and BRIGHTSPACE_PASSWORD, or asked for.`;

class UsageError extends Error {}

/** Which modules to test: every one, these ids, or names to find in the table of contents. */
type ModuleChoice = { all: true } | { ids: number[] } | { names: string };

function parseCommandLine(argv: string[]) {
  if (argv.some((arg) => /^--?(password|pass|pw|username|user)(=|$)/i.test(arg))) {
    throw new UsageError('Credentials are never taken from the command line. Set BRIGHTSPACE_USERNAME and BRIGHTSPACE_PASSWORD, or answer the prompt.');
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        site: { type: 'string' },
        'org-unit': { type: 'string' },
        modules: { type: 'string' },
        'list-modules': { type: 'boolean', default: false },
        client: { type: 'string' },
        out: { type: 'string' },
        data: { type: 'string' },
        'app-user': { type: 'string' },
        protocol: { type: 'string' },
        scopes: { type: 'string' },
        language: { type: 'string' },
        'allow-private-targets': { type: 'boolean', default: false },
        'enhanced-contrast': { type: 'boolean', default: false },
        full: { type: 'boolean', default: false },
        'link-max-age': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)} See --help for the options.`);
  }
  if (values.help) return null;
  const listModules = values['list-modules'] === true;
  const required = listModules ? (['site', 'org-unit'] as const) : (['site', 'org-unit', 'modules', 'client'] as const);
  const missing = required.filter((name) => !values[name]);
  if (missing.length > 0) throw new UsageError(`Missing ${missing.map((name) => `--${name}`).join(', ')}.${listModules ? '' : ' --list-modules shows the module ids and titles.'}`);
  if (!listModules && !values.out && !values.data) throw new UsageError('Missing --out DIR (the folder for the report files), or --data DIR (the local stack\'s data folder, which keeps them).');
  if (values['app-user'] !== undefined && !values.data) throw new UsageError('--app-user only applies with --data DIR, where the run is recorded.');
  if ((values.full === true || values['link-max-age'] !== undefined) && !values.data) {
    throw new UsageError('--full and --link-max-age only apply with --data DIR, where earlier verdicts are kept; without it every run checks everything.');
  }
  // The run's input rules (api/engine/run-input-rules.ts), as the API and the engine hold them.
  const orgUnit = orgUnitIdRule.safeParse(values['org-unit']);
  if (!orgUnit.success) throw new UsageError('--org-unit must be a whole number greater than 0. It is the number in the course\'s address, /d2l/home/N.');
  let modules: ModuleChoice = { all: true };
  if (!listModules) {
    const modulesText = values.modules!.trim();
    if (modulesText.toLowerCase() === 'all') modules = { all: true };
    else {
      const parts = modulesText.split(',').map((part) => idTextRule.safeParse(part.trim()));
      // Numbers that are no module id (0, 1.5) are a mistyped id, not a title.
      const numbers = modulesText.split(',').every((part) => /^\s*[\d.+-]+\s*$/.test(part));
      if (numbers && !parts.every((part) => part.success)) throw new UsageError('--modules must be "all", module ids or module titles separated by commas, e.g. 1,2 (see --list-modules).');
      if (parts.every((part) => part.success)) {
        const list = moduleIdsRule.safeParse(parts.map((part) => part.data));
        if (!list.success) throw new UsageError(`--modules lists too many modules: at most ${INPUT_LIMITS.modules.toLocaleString('en')}.`);
        modules = { ids: list.data };
      } else if (modulesText === '') {
        throw new UsageError('--modules must be "all", module ids or module titles separated by commas, e.g. 1,2 (see --list-modules).');
      } else {
        modules = { names: modulesText };
      }
    }
  }
  let scopes: CourseScope[] | undefined;
  if (values.scopes !== undefined) {
    const parts = values.scopes.split(',').map((part) => part.trim().toLowerCase()).filter((part) => part !== '');
    const chosen = parts.length === 1 && parts[0] === 'all' ? { success: true as const, data: [...COURSE_SCOPES] } : courseScopesRule.safeParse(parts);
    if (parts.length === 0 || !chosen.success) throw new UsageError(`--scopes must be "all" or some of ${COURSE_SCOPES.join(', ')}, separated by commas.`);
    scopes = chosen.data;
  }
  let language: Language = DEFAULT_LANGUAGE;
  if (values.language !== undefined) {
    const known = languageRule.safeParse(values.language);
    if (!known.success) throw new UsageError(`--language must be one of ${LANGUAGES.join(', ')}.`);
    language = known.data;
  }
  const linkMaxAgeMs = values['link-max-age'] === undefined ? undefined : parseMaxAge(values['link-max-age']);
  if (linkMaxAgeMs === null) throw new UsageError('--link-max-age must be a number of seconds, or a number with m, h or d (30m, 12h, 1d).');
  const appUser = (values['app-user'] ?? process.env.CTPO_LOCAL_EMAIL ?? DEFAULT_APP_USER).trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(appUser)) throw new UsageError(`--app-user must be the e-mail address you sign in to the app with; it is ${JSON.stringify(appUser)}.`);
  return {
    site: values.site!,
    orgUnitId: orgUnit.data,
    listModules,
    modules,
    scopes,
    client: values.client ?? '',
    out: values.out === undefined ? undefined : resolve(values.out),
    data: values.data === undefined ? undefined : resolve(values.data),
    protocolFile: values.protocol === undefined ? undefined : resolve(values.protocol),
    appUser,
    language,
    allowPrivateTargets: values['allow-private-targets'] === true || process.env.CTPO_ALLOW_PRIVATE_TARGETS === '1',
    enhancedContrast: values['enhanced-contrast'] === true || enhancedContrastFromEnv(),
    full: values.full === true,
    linkMaxAgeMs,
  };
}

type Options = NonNullable<ReturnType<typeof parseCommandLine>>;

/** Reads a line from the terminal; with `hidden`, nothing typed is shown. */
function ask(question: string, hidden: boolean): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    return Promise.reject(new UsageError('No terminal to ask for credentials: set BRIGHTSPACE_USERNAME and BRIGHTSPACE_PASSWORD.'));
  }
  process.stderr.write(question);
  return new Promise((resolveAnswer, reject) => {
    let answer = '';
    input.setRawMode(true);
    input.resume();
    input.setEncoding('utf8');
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolveAnswer(answer);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new UsageError('Cancelled.'));
        if (char === '\u007f' || char === '\b') {
          if (answer.length > 0) {
            answer = answer.slice(0, -1);
            if (!hidden) process.stderr.write('\b \b');
          }
          continue;
        }
        answer += char;
        if (!hidden) process.stderr.write(char);
      }
    };
    input.on('data', onData);
  });
}

function reportName(client: string, orgUnitId: number, when: Date): string {
  const slug = client.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().toLowerCase().replace(/[\s_-]+/g, '-').slice(0, 40) || 'course';
  const stamp = when.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return `${slug}-${orgUnitId}-${stamp}`;
}

function progressPrinter(t: ReturnType<typeof translator>) {
  const live = process.stderr.isTTY === true;
  let lastPhase = '';
  return (p: RunProgress) => {
    const line = t('cli.progress', { phase: t(`cli.phase.${p.phase}`), done: p.done, total: p.total });
    if (live) {
      process.stderr.write(`\r\u001b[2K${line}`);
      if (p.done === p.total) process.stderr.write('\n');
    } else if (p.phase !== lastPhase || p.done === p.total) {
      process.stderr.write(`${line}\n`);
    }
    lastPhase = p.phase;
  };
}

/** The flag or setting that fixes an error of the run, for the errors the command line can name it for. */
function hintFor(error: AppError, options: Options): 'private' | 'site' | 'orgunit' | 'credentials' | null {
  const id = error.text.id;
  if ((id === 'error.address.https-only' || id === 'error.address.not-allowed') && !options.allowPrivateTargets) return 'private';
  if (id === 'error.site.url-missing' || id === 'error.site.not-brightspace' || id === 'error.site.no-sign-in-form' || id === 'error.site.not-found' || id === 'error.address.invalid') return 'site';
  if (id === 'error.site.course-not-found' || id === 'error.site.course-forbidden') return 'orgunit';
  if (id === 'error.site.login-failed') return 'credentials';
  return null;
}

/**
 * The site's origin, refused at once when the address guard would refuse it (before any prompt), and
 * whether the local switch holds for it: only for a site on this machine or its network
 * (localSwitchFor), so the flag cannot open the user's loopback and LAN services to a public site's
 * course pages, nor send a public site's password over plain http. The engine decides the same again.
 */
async function siteOf(options: Options): Promise<{ origin: URL; allowPrivateTargets: boolean }> {
  const allowPrivateTargets = await localSwitchFor(options.site, options.allowPrivateTargets);
  const origin = siteOriginOf(options.site, allowPrivateTargets);
  try {
    await assertAllowedDestination(origin, sitePolicy(allowPrivateTargets));
  } catch (error) {
    if (isAppError(error)) throw error;
    // DNS had no answer: the address is mistyped, or the site is gone.
    throw new AppError('site_unreachable', msg('error.site.not-found', { host: origin.hostname }), { cause: error });
  }
  return { origin, allowPrivateTargets };
}

interface Credentials {
  username: string;
  password: string;
}

/** Module ids the run tests: as given, or found by title in the table of contents (one more sign-in). */
async function moduleIdsOf(options: Options, credentials: Credentials, signal: AbortSignal): Promise<number[] | 'all'> {
  if ('ids' in options.modules) return options.modules.ids;
  // A run recorded for the app names its modules by id, as the app does: 'all' is every top-level one.
  if ('all' in options.modules && options.data === undefined) return 'all';
  const toc = await loadTableOfContents({ siteUrl: options.site, ...credentials, orgUnitId: options.orgUnitId, allowPrivateTargets: options.allowPrivateTargets, signal });
  return 'all' in options.modules ? toc.Modules.map((module) => module.ModuleId) : resolveModuleNames(toc, options.modules.names);
}

/** The run as the app runs it, in the local stack's data folder: compared, dismissals applied, recorded. */
async function runRecorded(
  options: Options & { data: string },
  credentials: Credentials,
  modules: number[],
  site: URL,
  signal: AbortSignal,
  onProgress: (progress: RunProgress) => void,
  protocol: Protocol | undefined,
) {
  mkdirSync(options.data, { recursive: true, mode: 0o700 });
  const path = join(options.data, 'jobs.sqlite');
  const jobs = openSqliteJobStore({ path });
  const dismissals = openSqliteDismissalStore({ path });
  const protocols = openSqliteProtocolStore({ path });
  const cache = openSqliteVerdictCache({ path });
  const reports = createFileReportStore(join(options.data, 'reports'));
  try {
    const now = new Date();
    const job: JobRecord = {
      id: randomUUID(),
      // The app's runs are its user's, by the subject the local sign-in gives that e-mail.
      owner: subjectFor(LOCAL_POOL_ID, options.appUser),
      status: 'PROVISIONING',
      client: options.client,
      siteUrl: site.origin,
      orgUnitId: options.orgUnitId,
      modules,
      ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
      language: options.language,
      filename: reportFilename({ client: options.client, orgUnitId: options.orgUnitId, at: now }),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    await jobs.create(job);
    // Progress reaches the store (the app's monitor) and this terminal.
    const recorder: Pick<JobStore, 'update'> = {
      update: (id, patch) => {
        if (patch.progress !== undefined && patch.progress.phase !== undefined) onProgress(patch.progress as RunProgress);
        return jobs.update(id, patch);
      },
    };
    const done = await executeJob({
      job,
      credentials,
      jobs: recorder,
      reports,
      baselines: createBaselineSource({ history: jobs, dismissals, reports, protocols }),
      ...(protocol === undefined ? {} : { protocol }),
      allowPrivateTargets: options.allowPrivateTargets,
      options: { enhancedContrast: options.enhancedContrast, ...(options.linkMaxAgeMs === undefined ? {} : { linkMaxAgeMs: options.linkMaxAgeMs }) },
      cache,
      full: options.full,
      signal,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const text = done?.status === 'SUCCEEDED' ? await reports.get(job.filename, 'json') : undefined;
    return { job: done ?? job, report: text === undefined ? undefined : (JSON.parse(text) as Report), files: join(options.data, 'reports', job.filename) };
  } finally {
    jobs.close();
    dismissals.close();
    protocols.close();
    cache.close();
  }
}

/** The protocol's name, the readiness score and how many items are in each state, on one line. */
function protocolLine(p: ReturnType<typeof presenterFor>, protocol: NonNullable<Report['protocol']>): string {
  const count = (status: string) => protocol.items.filter((item) => item.status === status).length;
  const score = protocol.score === null ? p.t('report.protocol.score-none') : p.t('report.protocol.score', { score: protocol.score });
  return `${p.t('report.protocol.name', { name: protocol.name, version: protocol.version })}: ${score}. ${p.t('report.protocol.counts', { pass: count('pass'), fail: count('fail'), person: count('needs-person'), na: count('n/a') })}`;
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`ctpo: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (options === null) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  const t = translator(options.language);
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new AppError('internal', msg('cli.cancelled'))));
  let protocol: Protocol | undefined;
  if (options.protocolFile !== undefined) {
    try {
      protocol = parseProtocolText(await readFile(options.protocolFile, 'utf8'));
    } catch (error) {
      const why = isAppError(error) ? error.messageIn(options.language) : `it cannot be read (${error instanceof Error && 'code' in error ? String(error.code) : 'unknown error'}).`;
      process.stderr.write(`ctpo: --protocol ${options.protocolFile}: ${why}\n`);
      return 2;
    }
  }
  try {
    const { origin: site, allowPrivateTargets } = await siteOf(options);
    const username = process.env.BRIGHTSPACE_USERNAME || (await ask('Brightspace Username: ', false));
    const password = process.env.BRIGHTSPACE_PASSWORD || (await ask('Brightspace Password: ', true));
    // Out of the environment at once: every process started from here on (the browser, whose
    // renderers run course pages' scripts; the document reader) would otherwise inherit them.
    delete process.env.BRIGHTSPACE_USERNAME;
    delete process.env.BRIGHTSPACE_PASSWORD;
    const credentials = { username, password };
    if (allowPrivateTargets) {
      process.stderr.write(`${t('cli.private-targets')}\n`);
    }
    if (options.listModules) {
      const toc = await loadTableOfContents({ siteUrl: options.site, ...credentials, orgUnitId: options.orgUnitId, allowPrivateTargets: options.allowPrivateTargets, signal: controller.signal });
      process.stdout.write(`${formatModuleList(toc)}\n`);
      return 0;
    }
    const modules = await moduleIdsOf(options, credentials, controller.signal);
    process.stderr.write(`Accessibility: ${accessibilityModeLine(process.env, options.enhancedContrast)}\n`);
    const p = presenterFor(options.language);
    let report: Report;
    let files: string[] = [];
    if (options.data !== undefined) {
      const recorded = await runRecorded({ ...options, data: options.data }, credentials, modules as number[], site, controller.signal, progressPrinter(t), protocol);
      if (recorded.report === undefined) {
        process.stderr.write(`\nctpo: ${recorded.job.reason ?? t('cli.failed-unexpectedly')}\n`);
        return controller.signal.aborted ? 130 : 1;
      }
      report = recorded.report;
      files = ['html', 'json', 'csv'].map((extension) => `${recorded.files}.${extension}`);
    } else {
      report = await runCourseTest(
        {
          siteUrl: options.site,
          username,
          password,
          orgUnitId: options.orgUnitId,
          modules,
          ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
          client: options.client,
          language: options.language,
          allowPrivateTargets: options.allowPrivateTargets,
          signal: controller.signal,
          options: { enhancedContrast: options.enhancedContrast },
        },
        progressPrinter(t),
      );
      report = withProtocol(report, protocol ?? DEFAULT_PROTOCOL);
    }
    if (options.out !== undefined) {
      await mkdir(options.out, { recursive: true });
      const base = join(options.out, reportName(options.client, options.orgUnitId, new Date(report.startedAt)));
      await writeFile(`${base}.json`, renderJsonReport(report));
      await writeFile(`${base}.csv`, renderCsvReport(report));
      await writeFile(`${base}.html`, renderHtmlReport(report));
      files = [`${base}.html`, `${base}.json`, `${base}.csv`, ...files];
    }
    const lines = [summarySentences(p, report).join(' ')];
    // What could not be scanned, by name: the count alone does not say what to check by hand.
    for (const entry of report.notScanned) {
      const place = [entry.moduleTitle, entry.topicTitle, entry.title === entry.topicTitle ? null : entry.title].filter((part) => part !== null && part !== '').join(' › ');
      lines.push(`${t('report.label', { label: t('report.not-scanned.label') })} ${place}: ${entry.reason}`);
    }
    if (report.protocol !== undefined) lines.push(protocolLine(p, report.protocol));
    if (report.totals.comparison !== undefined) {
      const { new: fresh, fixed, open } = report.totals.comparison;
      lines.push(t('report.history.counts', { new: fresh, fixed, open }));
    } else if (options.data === undefined) {
      lines.push(t('cli.not-compared'));
    }
    process.stdout.write(`${[...lines, ...files].join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ModuleNameError) {
      process.stderr.write(`\nctpo: ${error.message}\n`);
      return controller.signal.aborted ? 130 : 2;
    }
    if (isAppError(error)) {
      const hint = hintFor(error, options);
      process.stderr.write(`\nctpo: ${error.messageIn(options.language)}${hint === null ? '' : ` ${t('cli.hint', { flag: hint })}`}\n`);
      return controller.signal.aborted ? 130 : 1;
    }
    process.stderr.write(`\nctpo: ${t('cli.failed-unexpectedly')}\n`);
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}

process.exitCode = await main();
