// Load figures of the local stack, on loopback only, bounded in count and time:
//   npm run load -- pollers [--pollers 200] [--seconds 30] [--interval-ms 0] [--quiet]
//   npm run load -- runs [--runs 20] [--pool 2]
// pollers: that many clients ask for job statuses for that long, each as soon as its last answer
//   came (--interval-ms 0) or every so often; they run in a child process, so their own work does
//   not slow the server they measure. Meanwhile the server keeps two real runs of the demo course
//   going, unless --quiet. Prints the latency percentiles; exits 1 on any error.
// The demo course also serves from a child process of its own: a Brightspace site is another
// machine, and its pages, files and link checks answered on the server's thread would be counted
// against the server.
// runs: that many runs of the demo course submitted at once; prints how long they waited and ran;
//   exits 1 unless every one SUCCEEDED.
// The figures are recorded in docs/reliability.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, fetch } from 'undici';
import { DEMO_MODULES, DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER, startDemoCourse } from '../api/local/demo-course/demo-course.ts';
import { LOCAL_CLIENT_ID } from '../api/local/local-config.ts';
import { startLocalStack } from '../api/local/local-stack.ts';
import type { LocalStack } from '../api/local/local-stack.ts';
import { httpsClient, signIn } from '../api/local/identity/hosted-login-client.ts';
import type { HttpsClient } from '../api/local/identity/hosted-login-client.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const TOP_LEVEL_MODULES = DEMO_MODULES.filter((module) => module.id % 100 === 0).map((module) => module.id);

interface PollerSettings {
  origin: string;
  caPath: string;
  token: string;
  jobIds: string[];
  pollers: number;
  seconds: number;
  intervalMs: number;
}

interface PollerFigures {
  requests: number;
  errors: number;
  errorSamples: string[];
  wallSeconds: number;
  latenciesMs: number[];
  /** The pollers' own process: how late its event loop ran (part of every latency) and its CPU. */
  ownLoopDelayMs: { p99: number; max: number };
  ownCpuSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

// ---- the pollers (child process) ----------------------------------------------------------------

async function pollersChild(settings: PollerSettings): Promise<void> {
  const { readFileSync } = await import('node:fs');
  // One connection per poller, as many browsers would have.
  const agent = new Agent({ connect: { ca: readFileSync(settings.caPath, 'utf8') }, connections: settings.pollers, pipelining: 1 });
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  // The histogram holds the time between the monitor's own timer ticks: what is over the tick is lateness.
  const tickMs = 5;
  const loopDelay = monitorEventLoopDelay({ resolution: tickMs });
  const cpuAtStart = process.cpuUsage();
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + settings.seconds * 1000;

  const poller = async (index: number) => {
    // Spread the first requests over the first interval, as users arrive at different times.
    if (settings.intervalMs > 0) await sleep((index / settings.pollers) * settings.intervalMs);
    const jobId = settings.jobIds[index % settings.jobIds.length]!;
    while (performance.now() < deadline) {
      const at = performance.now();
      try {
        const answer = await fetch(`${settings.origin}/api/job-status/${encodeURIComponent(jobId)}`, {
          headers: { authorization: `Bearer ${settings.token}` },
          dispatcher: agent,
        });
        const body = (await answer.json()) as { status?: string };
        if (answer.status !== 200 || typeof body.status !== 'string') {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(`HTTP ${answer.status} ${JSON.stringify(body)}`);
        }
      } catch (error) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(error instanceof Error ? `${error.message} ${String((error.cause as Error | undefined)?.message ?? '')}` : String(error));
      }
      latencies.push(performance.now() - at);
      const wait = settings.intervalMs - (performance.now() - at);
      if (wait > 0) await sleep(wait);
    }
  };
  loopDelay.enable();
  await Promise.all(Array.from({ length: settings.pollers }, (_, index) => poller(index)));
  loopDelay.disable();
  const cpu = process.cpuUsage(cpuAtStart);
  await agent.close();
  const figures: PollerFigures = {
    requests: latencies.length,
    errors,
    errorSamples,
    wallSeconds: (performance.now() - started) / 1000,
    latenciesMs: latencies.map((value) => Math.round(value * 10) / 10),
    ownLoopDelayMs: { p99: Math.max(0, loopDelay.percentile(99) / 1e6 - tickMs), max: Math.max(0, loopDelay.max / 1e6 - tickMs) },
    ownCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  // Written before the process exits: a pipe takes large writes in pieces.
  await new Promise<void>((resolve) => process.stdout.write(`${JSON.stringify(figures)}\n`, () => resolve()));
}

// ---- the server side (this process) -------------------------------------------------------------

// ---- the demo course (child process) ------------------------------------------------------------

async function demoCourseChild(): Promise<void> {
  const demo = await startDemoCourse({ port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ origin: demo.origin })}\n`);
  // Serves until the parent closes stdin (or goes away).
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('close', resolve));
  await demo.close();
}

interface DemoCourseProcess {
  origin: string;
  close(): Promise<void>;
}

async function startDemoCourseProcess(): Promise<DemoCourseProcess> {
  const child = spawn(process.execPath, [SCRIPT, 'demo-course-child'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n') && line !== undefined) resolve((JSON.parse(line) as { origin: string }).origin);
    });
    child.once('exit', (code) => reject(new Error(`the demo course's process ended with ${code} before it served`)));
  });
  return {
    origin,
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

interface Setup {
  dataDir: string;
  demo: DemoCourseProcess;
  stack: LocalStack;
  client: HttpsClient;
  tokens: string[];
  close(): Promise<void>;
}

async function setUp(poolSize: number, users: number, maxActiveRunsPerUser: number): Promise<Setup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ctpo-load-'));
  const demo = await startDemoCourseProcess();
  const accounts = Array.from({ length: users }, (_, index) => ({ email: `load-${index}@example.com`, password: `load-password-${index}` }));
  const stack = await startLocalStack({
    dataDir,
    port: 0,
    hosts: ['127.0.0.1'],
    publicHost: '127.0.0.1',
    webDist: null,
    users: accounts,
    useMkcert: false,
    poolSize,
    maxActiveRunsPerUser,
    log: (line) => console.error(`  server: ${line}`),
  });
  const client = httpsClient(stack.ca);
  const tokens: string[] = [];
  for (const account of accounts) {
    tokens.push((await signIn({ client, origin: stack.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${stack.origin}/`, ...account })).access_token);
  }
  return {
    dataDir,
    demo,
    stack,
    client,
    tokens,
    async close() {
      await stack.close();
      await client.close();
      await demo.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startDemoRun(setup: Setup, token: string, label: string): Promise<string> {
  const answer = await setup.client.fetch(`${setup.stack.origin}/api/run-tests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ USER_NAME: DEMO_USER, PASSWORD: DEMO_PASSWORD, CLIENT_URL: setup.demo.origin, ORG_UNIT_ID: DEMO_ORG_UNIT, CLIENT_NAME: label, MODULES: TOP_LEVEL_MODULES }),
  });
  const body = (await answer.json()) as { taskArn?: string; message?: string };
  if (answer.status !== 202 || body.taskArn === undefined) throw new Error(`run-tests answered ${answer.status}: ${body.message ?? ''}`);
  return body.taskArn;
}

async function waitForEnd(setup: Setup, ids: string[], withinMs: number): Promise<Map<string, string>> {
  const deadline = Date.now() + withinMs;
  const ends = new Map<string, string>();
  while (Date.now() < deadline && ends.size < ids.length) {
    for (const id of ids) {
      const job = await setup.stack.jobs.get(id);
      if (job && (job.status === 'SUCCEEDED' || job.status === 'FAILED')) ends.set(id, job.status);
    }
    await sleep(100);
  }
  return ends;
}

function machine(): string {
  return `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node.js ${process.version}`;
}

async function pollers(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { pollers: { type: 'string', default: '200' }, seconds: { type: 'string', default: '30' }, 'interval-ms': { type: 'string', default: '0' }, quiet: { type: 'boolean', default: false } },
  });
  const count = Math.min(1000, Math.max(1, Number(values.pollers)));
  const seconds = Math.min(300, Math.max(1, Number(values.seconds)));
  const intervalMs = Math.min(60_000, Math.max(0, Number(values['interval-ms'])));

  // User 0 owns the polled jobs; user 1 keeps the background runs going.
  const setup = await setUp(2, 2, 3);
  let background = 0;
  let keepRunning = !values.quiet;
  try {
    const jobIds: string[] = [];
    for (let i = 0; i < 3; i++) jobIds.push(await startDemoRun(setup, setup.tokens[0]!, `Polled ${i + 1}`));
    await waitForEnd(setup, jobIds, 60_000);

    const runLoop = async (slot: number) => {
      while (keepRunning) {
        const id = await startDemoRun(setup, setup.tokens[1]!, `Background ${slot}`);
        await waitForEnd(setup, [id], 120_000);
        background++;
      }
    };
    const loops = values.quiet ? [] : [runLoop(1), runLoop(2)];

    const caPath = join(setup.dataDir, 'ca.pem');
    writeFileSync(caPath, setup.stack.ca);
    const settings: PollerSettings = { origin: setup.stack.origin, caPath, token: setup.tokens[0]!, jobIds, pollers: count, seconds, intervalMs };
    console.log(`${count} pollers for ${seconds} s, ${intervalMs === 0 ? 'each asking again as soon as answered' : `each every ${intervalMs} ms`}, ${values.quiet ? 'no runs going' : 'two demo runs going all the time'}; ${machine()}`);
    const child = spawn(process.execPath, [SCRIPT, 'pollers-child', JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    keepRunning = false;
    await Promise.all(loops);
    if (code !== 0) throw new Error(`the pollers' process ended with ${code}`);

    const figures = JSON.parse(output) as PollerFigures;
    const sorted = Float64Array.from(figures.latenciesMs).sort();
    const list = Array.from(sorted);
    console.log(`requests     ${figures.requests} (${(figures.requests / figures.wallSeconds).toFixed(0)} per second)`);
    console.log(`errors       ${figures.errors}${figures.errorSamples.length > 0 ? `, e.g. ${figures.errorSamples.join(' | ')}` : ''}`);
    console.log(`latency      p50 ${ms(percentile(list, 50))}, p90 ${ms(percentile(list, 90))}, p99 ${ms(percentile(list, 99))}, max ${ms(list[list.length - 1] ?? Number.NaN)}`);
    console.log(
      `pollers      their own process: event loop late by p99 ${ms(figures.ownLoopDelayMs.p99)}, max ${ms(figures.ownLoopDelayMs.max)} (part of every latency above); ` +
        `${(figures.ownCpuSeconds / figures.wallSeconds).toFixed(2)} of a core`,
    );
    if (!values.quiet) console.log(`background   ${background} demo runs finished meanwhile`);
    return figures.errors === 0 && figures.requests > 0 ? 0 : 1;
  } finally {
    keepRunning = false;
    await setup.close();
  }
}

async function runs(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { runs: { type: 'string', default: '20' }, pool: { type: 'string', default: '2' } } });
  const count = Math.min(200, Math.max(1, Number(values.runs)));
  const pool = Math.min(16, Math.max(1, Number(values.pool)));
  const users = Math.ceil(count / 5);
  const setup = await setUp(pool, users, 5);
  try {
    console.log(`${count} demo course runs submitted at once, ${pool} at a time; ${machine()}`);
    const at = Date.now();
    const ids = await Promise.all(Array.from({ length: count }, (_, index) => startDemoRun(setup, setup.tokens[index % users]!, `Load ${index + 1}`)));
    const ends = await waitForEnd(setup, ids, 10 * 60_000);
    const allDone = (Date.now() - at) / 1000;
    const jobs = await Promise.all(ids.map((id) => setup.stack.jobs.get(id)));
    const waits = jobs.map((job) => (job?.startedAt ? Date.parse(job.startedAt) - Date.parse(job.createdAt) : Number.NaN)).sort((a, b) => a - b);
    const durations = jobs.map((job) => (job?.startedAt ? Date.parse(job.updatedAt) - Date.parse(job.startedAt) : Number.NaN)).sort((a, b) => a - b);
    const succeeded = [...ends.values()].filter((status) => status === 'SUCCEEDED').length;
    console.log(`accepted     ${ids.length} of ${count}`);
    console.log(`ended        ${ends.size} (SUCCEEDED ${succeeded}, FAILED ${ends.size - succeeded}); not ended: ${count - ends.size}`);
    console.log(`all done in  ${allDone.toFixed(1)} s`);
    console.log(`queue wait   p50 ${(percentile(waits, 50) / 1000).toFixed(1)} s, max ${(waits[waits.length - 1]! / 1000).toFixed(1)} s`);
    console.log(`run time     p50 ${(percentile(durations, 50) / 1000).toFixed(1)} s, max ${(durations[durations.length - 1]! / 1000).toFixed(1)} s`);
    return succeeded === count ? 0 : 1;
  } finally {
    await setup.close();
  }
}

const [scenario, ...rest] = process.argv.slice(2);
const main = async (): Promise<number> => {
  if (scenario === 'pollers-child') {
    await pollersChild(JSON.parse(rest[0] ?? '{}') as PollerSettings);
    return 0;
  }
  if (scenario === 'demo-course-child') {
    await demoCourseChild();
    return 0;
  }
  if (scenario === 'pollers') return pollers(rest);
  if (scenario === 'runs') return runs(rest);
  console.error('Usage: npm run load -- pollers [--pollers 200] [--seconds 30] [--interval-ms 0] [--quiet]\n       npm run load -- runs [--runs 20] [--pool 2]');
  return 2;
};
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
