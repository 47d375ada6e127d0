// Runs one course test from the command line and writes the HTML report and its JSON and CSV twins:
//   npm run ctpo -- --site URL --org-unit N --modules 1,2|all --client NAME --out DIR [--scopes all|a,b] [--language TAG] [--allow-private-targets]
// The Brightspace user name and password come from BRIGHTSPACE_USERNAME / BRIGHTSPACE_PASSWORD or a
// prompt (the password is not echoed), never from the command line, where other users of the
// machine and the shell history could read them.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isAppError } from '../api/errors.ts';
import { runCourseTest } from '../api/engine/run-course-test.ts';
import type { RunProgress } from '../api/engine/progress.ts';
import { COURSE_SCOPES, type CourseScope } from '../api/brightspace/course-scopes.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../api/i18n/languages.ts';
import { courseScopesRule, idTextRule, INPUT_LIMITS, languageRule, moduleIdsRule, orgUnitIdRule } from '../api/engine/run-input-rules.ts';
import { translator } from '../api/i18n/messages.ts';
import { presenterFor, summarySentences } from '../api/report/present.ts';
import { renderCsvReport } from '../api/report/render-csv.ts';
import { renderHtmlReport } from '../api/report/render-html.ts';
import { renderJsonReport } from '../api/report/render-json.ts';
import { accessibilityModeLine } from '../api/a11y/a11y-mode.ts';
import { enhancedContrastFromEnv } from '../api/a11y/a11y-runner.ts';

const USAGE = `Usage: npm run ctpo -- --site URL --org-unit N --modules 1,2|all --client NAME --out DIR [--scopes all|a,b] [--language TAG] [--allow-private-targets] [--enhanced-contrast]

  --site URL                 the Brightspace site, e.g. https://school.brightspace.com
  --org-unit N               the course's org unit ID (as in /d2l/home/N)
  --modules 1,2 | all        module ids to test (nested modules included), or every module
  --client NAME              the client label shown in the report
  --out DIR                  folder for the report files (created if missing)
  --scopes all | a,b         course-wide items to check too: all, or some of
                             ${COURSE_SCOPES.join(', ')}
                             (without it, the modules only, with the activities they link to)
  --language TAG             the language of the report and of the messages: ${LANGUAGES.join(', ')}
                             (default en, US English)
  --allow-private-targets    let loopback and private addresses through (a course on this machine
                             or network); also CTPO_ALLOW_PRIVATE_TARGETS=1
  --enhanced-contrast        also check AAA enhanced contrast (7:1); also CTPO_ENHANCED_CONTRAST=1

Accessibility is checked in headless Chromium (/usr/bin/chromium, or CTPO_CHROMIUM; off for none);
without one, in jsdom, and colour contrast and the rules that need a browser are not checked.

The user name and password are read from BRIGHTSPACE_USERNAME and BRIGHTSPACE_PASSWORD, or asked for.`;

class UsageError extends Error {}

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
        client: { type: 'string' },
        out: { type: 'string' },
        scopes: { type: 'string' },
        language: { type: 'string' },
        'allow-private-targets': { type: 'boolean', default: false },
        'enhanced-contrast': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return null;
  const missing = (['site', 'org-unit', 'modules', 'client', 'out'] as const).filter((name) => !values[name]);
  if (missing.length > 0) throw new UsageError(`Missing ${missing.map((name) => `--${name}`).join(', ')}.`);
  // The run's input rules (api/engine/run-input-rules.ts), as the API and the engine hold them.
  const orgUnit = orgUnitIdRule.safeParse(values['org-unit']);
  if (!orgUnit.success) throw new UsageError('--org-unit must be a whole number greater than 0.');
  const modulesText = values.modules!.trim();
  let modules: number[] | 'all';
  if (modulesText.toLowerCase() === 'all') modules = 'all';
  else {
    const parts = modulesText.split(',').map((part) => idTextRule.safeParse(part));
    if (parts.some((part) => !part.success)) throw new UsageError('--modules must be "all" or module ids separated by commas, e.g. 1,2.');
    const list = moduleIdsRule.safeParse(parts.map((part) => part.data));
    if (!list.success) throw new UsageError(`--modules lists too many modules: at most ${INPUT_LIMITS.modules.toLocaleString('en')}.`);
    modules = list.data;
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
  return {
    site: values.site!,
    orgUnitId: orgUnit.data,
    modules,
    scopes,
    client: values.client!,
    out: resolve(values.out!),
    language,
    allowPrivateTargets: values['allow-private-targets'] === true || process.env.CTPO_ALLOW_PRIVATE_TARGETS === '1',
    enhancedContrast: values['enhanced-contrast'] === true || enhancedContrastFromEnv(),
  };
}

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
  process.once('SIGINT', () => controller.abort(new UsageError('Cancelled.')));
  try {
    const username = process.env.BRIGHTSPACE_USERNAME || (await ask('Brightspace Username: ', false));
    const password = process.env.BRIGHTSPACE_PASSWORD || (await ask('Brightspace Password: ', true));
    if (options.allowPrivateTargets) {
      process.stderr.write(`${t('cli.private-targets')}\n`);
    }
    process.stderr.write(`Accessibility: ${accessibilityModeLine(process.env, options.enhancedContrast)}\n`);
    const report = await runCourseTest(
      {
        siteUrl: options.site,
        username,
        password,
        orgUnitId: options.orgUnitId,
        modules: options.modules,
        ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
        client: options.client,
        language: options.language,
        allowPrivateTargets: options.allowPrivateTargets,
        signal: controller.signal,
        options: { enhancedContrast: options.enhancedContrast },
      },
      progressPrinter(t),
    );
    await mkdir(options.out, { recursive: true });
    const base = join(options.out, reportName(options.client, options.orgUnitId, new Date(report.startedAt)));
    await writeFile(`${base}.json`, renderJsonReport(report));
    await writeFile(`${base}.csv`, renderCsvReport(report));
    await writeFile(`${base}.html`, renderHtmlReport(report));
    process.stdout.write(`${summarySentences(presenterFor(options.language), report).join(' ')}\n${base}.html\n${base}.json\n${base}.csv\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`\nctpo: ${error.message}\n`);
      return controller.signal.aborted ? 130 : 2;
    }
    const message = isAppError(error) ? error.messageIn(options.language) : t('cli.failed-unexpectedly');
    process.stderr.write(`\nctpo: ${message}\n`);
    if (!isAppError(error)) console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}

process.exitCode = await main();
