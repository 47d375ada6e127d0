// `npm start`: the whole product on this machine, no AWS account. Builds the app when it is missing
// or out of date, makes the certificate and keys on first start, then serves everything on
// https://localhost:8443 until Ctrl-C. Settings come from the environment (see --help).
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appBuildState } from '../api/local/app-build.ts';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_PORT, DEMO_USER, startDemoCourse } from '../api/local/demo-course/demo-course.ts';
import type { DemoCourse } from '../api/local/demo-course/demo-course.ts';
import { DEFAULT_USER, startLocalStack } from '../api/local/local-stack.ts';
import type { LocalStack } from '../api/local/local-stack.ts';
import { accessibilityModeLine } from '../api/a11y/a11y-mode.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

const HELP = `Usage: npm start [-- --no-build]

Runs CTPO locally on https://localhost:8443: the app, sign-in, the QA API and the reports, and a
demo Brightspace course to test on http://localhost:${DEMO_PORT}.

  --no-build   serve web/dist as it is, even when it is missing or older than web/src

Environment:
  CTPO_PORT                   HTTPS port (default 8443; 0 picks a free one)
  CTPO_DEMO_PORT              the demo course's port (default ${DEMO_PORT}; 0 picks a free one; off: no demo course)
  CTPO_DATA_DIR               jobs, reports, certificate and signing key (default .ctpo)
  CTPO_LOCAL_EMAIL            sign-in e-mail (default ${DEFAULT_USER.email})
  CTPO_LOCAL_PASSWORD         sign-in password (default ${DEFAULT_USER.password})
  CTPO_POOL_SIZE              test runs at once (default 2)
  CTPO_POLL_INTERVAL_MS       how often the app asks for a job's status (default 10000)
  CTPO_ALLOW_PRIVATE_TARGETS  1 (default here): courses on this machine or network may be tested, over http too,
                              and their pages and links may reach loopback and private addresses (never link-local
                              or cloud metadata ones); a public site's runs keep to https and public addresses
                              all the same; 0: public sites only
  CTPO_CHROMIUM               the Chromium for the accessibility checks (default /usr/bin/chromium; off: none, checks without a browser)
  CTPO_ENHANCED_CONTRAST      1: also check AAA enhanced contrast (7:1)
  CTPO_REPORT_EXPIRY_DAYS     days a finished run and its report are kept (default 30; off: for ever); dismissals stay
`;

interface Settings {
  build: boolean;
  port: number;
  /** null: no demo course. */
  demoPort: number | null;
  dataDir: string;
  email: string;
  password: string;
  passwordFromEnv: boolean;
  poolSize: number;
  pollIntervalMs: number;
  allowPrivateTargets: boolean;
  /** null: runs and reports are kept for ever. */
  reportExpiryDays: number | null;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}; it is ${JSON.stringify(raw)}.`);
  }
  return value;
}

function settingsFrom(argv: string[], env: NodeJS.ProcessEnv): Settings {
  const unknown = argv.filter((arg) => arg !== '--no-build');
  if (unknown.length > 0) throw new Error(`Unknown option ${unknown[0]}. See npm start -- --help.`);
  const allow = env.CTPO_ALLOW_PRIVATE_TARGETS?.trim();
  if (allow !== undefined && allow !== '' && allow !== '0' && allow !== '1') {
    throw new Error(`CTPO_ALLOW_PRIVATE_TARGETS must be 1 or 0; it is ${JSON.stringify(allow)}.`);
  }
  const email = env.CTPO_LOCAL_EMAIL?.trim() || DEFAULT_USER.email;
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error(`CTPO_LOCAL_EMAIL must be an e-mail address; it is ${JSON.stringify(email)}.`);
  const password = env.CTPO_LOCAL_PASSWORD ?? '';
  return {
    build: !argv.includes('--no-build'),
    port: integer(env, 'CTPO_PORT', 8443, 0, 65535),
    demoPort: env.CTPO_DEMO_PORT?.trim() === 'off' ? null : integer(env, 'CTPO_DEMO_PORT', DEMO_PORT, 0, 65535),
    dataDir: resolve(root, env.CTPO_DATA_DIR?.trim() || '.ctpo'),
    email,
    password: password === '' ? DEFAULT_USER.password : password,
    passwordFromEnv: password !== '',
    poolSize: integer(env, 'CTPO_POOL_SIZE', 2, 1, 16),
    pollIntervalMs: integer(env, 'CTPO_POLL_INTERVAL_MS', 10_000, 1000, 3_600_000),
    allowPrivateTargets: allow !== '0',
    reportExpiryDays: env.CTPO_REPORT_EXPIRY_DAYS?.trim() === 'off' ? null : integer(env, 'CTPO_REPORT_EXPIRY_DAYS', 30, 1, 36_500),
  };
}

async function buildAppIfNeeded(): Promise<void> {
  const webDir = resolve(root, 'web');
  const state = appBuildState(webDir);
  if (state.state === 'fresh') return;
  console.log(
    state.state === 'missing'
      ? 'Building the app: web/dist is missing (this takes a minute, once).'
      : `Building the app: web/dist is older than ${relative(root, state.newestSource)}.`,
  );
  // Loaded only when needed: Vite is a large import for a start that does not build.
  const { build } = await import('vite');
  await build({ configFile: resolve(webDir, 'vite.config.ts'), logLevel: 'warn' });
  console.log('App built.');
}

/** The demo course, or why it is not running; it is a convenience, so CTPO starts without it. */
async function startDemo(settings: Settings): Promise<DemoCourse | string> {
  if (settings.demoPort === null) return 'not started (CTPO_DEMO_PORT=off).';
  try {
    return await startDemoCourse({ port: settings.demoPort });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      return `not started: port ${settings.demoPort} is in use. Choose another with CTPO_DEMO_PORT.`;
    }
    throw error;
  }
}

function describe(stack: LocalStack, settings: Settings, demo: DemoCourse | string): string {
  const show = (path: string) => {
    const near = relative(process.cwd(), path);
    return near === '' ? '.' : near.startsWith('..') ? path : near;
  };
  const lines = [
    '',
    'CTPO is running.',
    '',
    `  Open        ${stack.origin}/`,
    `  Sign in     ${settings.email} / ${settings.passwordFromEnv ? '(the password in CTPO_LOCAL_PASSWORD)' : settings.password}`,
    `  Data        ${show(settings.dataDir)} (jobs, reports, certificate, signing key)`,
    `  Test runs   ${settings.poolSize} at once, the rest wait`,
    settings.reportExpiryDays === null
      ? '  Kept        runs and reports for ever (CTPO_REPORT_EXPIRY_DAYS=off)'
      : `  Kept        runs and reports ${settings.reportExpiryDays} days (CTPO_REPORT_EXPIRY_DAYS); dismissed findings until restored`,
  ];
  if (typeof demo === 'string') {
    lines.push(`  Demo course ${demo}`);
  } else {
    lines.push(
      `  Demo course Client Site URL ${demo.origin}, Org Unit ID ${DEMO_ORG_UNIT}`,
      `              Brightspace Username ${DEMO_USER}, Brightspace Password ${DEMO_PASSWORD}`,
    );
    if (!settings.allowPrivateTargets) lines.push('              (it lives on this machine, so it cannot be tested with CTPO_ALLOW_PRIVATE_TARGETS=0)');
  }
  if (stack.certificateSource === 'self-signed') {
    lines.push(
      `  Certificate self-signed: the browser warns once; choose Advanced, then Proceed to localhost.`,
      `              For a trusted one, install mkcert (mkcert -install), delete ${show(resolve(settings.dataDir, 'tls'))} and restart.`,
    );
  } else {
    lines.push('  Certificate made by mkcert: trusted by this machine’s browsers.');
  }
  lines.push(
    settings.allowPrivateTargets
      ? '  Addresses   private and loopback sites allowed (CTPO_ALLOW_PRIVATE_TARGETS=1), so a course on this machine can be tested; a public site’s runs reach public addresses only; link-local and cloud metadata addresses never. AWS allows neither.'
      : '  Addresses   public sites only (CTPO_ALLOW_PRIVATE_TARGETS=0).',
  );
  lines.push(`  Accessibility ${accessibilityModeLine()}`);
  if (stack.expiredJobs > 0) {
    lines.push(`  Expired     ${stack.expiredJobs} run${stack.expiredJobs === 1 ? '' : 's'} older than ${settings.reportExpiryDays} days deleted with ${stack.expiredJobs === 1 ? 'its report' : 'their reports'}.`);
  }
  if (stack.recoveredJobs > 0) {
    lines.push(`  Restart     ${stack.recoveredJobs} run${stack.recoveredJobs === 1 ? ' was' : 's were'} cut off by the last stop and ${stack.recoveredJobs === 1 ? 'is' : 'are'} now FAILED.`);
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    return;
  }
  const settings = settingsFrom(argv, process.env);
  if (settings.build) await buildAppIfNeeded();

  let stack: LocalStack;
  try {
    stack = await startLocalStack({
      dataDir: settings.dataDir,
      port: settings.port,
      webDist: resolve(root, 'web', 'dist'),
      users: [{ email: settings.email, password: settings.password }],
      poolSize: settings.poolSize,
      pollIntervalMs: settings.pollIntervalMs,
      allowPrivateTargets: settings.allowPrivateTargets,
      reportExpiryDays: settings.reportExpiryDays,
      log: (line) => console.error(line),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`Port ${settings.port} is already in use. Is CTPO already running? Stop it, or choose another port with CTPO_PORT.`, { cause: error });
    }
    throw error;
  }
  let demo: DemoCourse | string;
  try {
    demo = await startDemo(settings);
  } catch (error) {
    await stack.close();
    throw error;
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      console.log('Stopping now.');
      process.exit(130);
    }
    stopping = true;
    console.log(`\n${signal}: stopping. Runs in progress end FAILED with the reason; press Ctrl-C again to stop at once.`);
    void Promise.all([stack.close(), typeof demo === 'string' ? undefined : demo.close()]).then(
      () => {
        console.log('CTPO stopped.');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('CTPO did not stop cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Only now, with the handlers in place, may "Press Ctrl-C to stop." be read: a Ctrl-C a moment
  // earlier would kill the process without closing the stack.
  console.log(describe(stack, settings, demo));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
