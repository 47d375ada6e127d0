// The server killed in the middle of a run (a real process, SIGKILL: no clean-up of any kind) and
// started again on the same data folder: the run it cut off, and the one waiting, end FAILED with
// the reason; the finished run, its report and sign-in survive; new runs work.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { RESTART_REASON } from '../../../api/jobs/fail-interrupted-jobs.ts';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import { startBrightspaceSite } from '../../../api/local/demo-course/brightspace-site.ts';
import type { BrightspaceSite } from '../../../api/local/demo-course/brightspace-site.ts';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER, startDemoCourse } from '../../../api/local/demo-course/demo-course.ts';
import type { DemoCourse } from '../../../api/local/demo-course/demo-course.ts';
import { LOCAL_CLIENT_ID } from '../../../api/local/local-config.ts';
import { apiCaller } from './run-helpers.ts';
import type { RunRequest } from './run-helpers.ts';
import { httpsClient, signIn } from './support.ts';

const stackProcess = fileURLToPath(new URL('./fixtures/stack-process.ts', import.meta.url));

interface Server {
  child: ChildProcessWithoutNullStreams;
  origin: string;
  recovered: number;
  exited: Promise<NodeJS.Signals | number | null>;
}

async function startServer(dataDir: string, port: number): Promise<Server> {
  const child = spawn(process.execPath, [stackProcess, JSON.stringify({ dataDir, port, poolSize: 1 })], { stdio: 'pipe' });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /READY (\S+) (\d+)/.exec(seen);
      if (match) resolve(match);
    });
    void exited.then((end) => reject(new Error(`the server process ended (${String(end)}) before it was ready:\n${output}`)));
  });
  return { child, origin: ready[1]!, recovered: Number(ready[2]), exited };
}

/** True while a process with this id exists. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A job as the data folder's job store has it (read beside the running server). */
async function readJob(id: string) {
  const store = openSqliteJobStore({ path: join(dataDir, 'jobs.sqlite') });
  try {
    return await store.get(id);
  } finally {
    store.close();
  }
}

let dataDir: string;
let demo: DemoCourse;
let slowSite: BrightspaceSite;
const servers: Server[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ctpo-kill-'));
  demo = await startDemoCourse({ port: 0, hosts: ['127.0.0.1'], publicHost: '127.0.0.1' });
  // A course whose one link takes a minute to answer: its run is surely still going when killed.
  slowSite = await startBrightspaceSite({
    login: 'form',
    users: [{ username: DEMO_USER, password: DEMO_PASSWORD }],
    courses: [{
      orgUnitId: DEMO_ORG_UNIT,
      name: 'Slow course',
      code: 'SLOW',
      modules: [{ id: 1, title: 'Week 1', topics: [{ id: 11, title: 'Reading', kind: 'html', fileName: 'reading.html', html: `<p>Read <a href="${demo.web.origin}/slow/60000/chapter">the chapter</a>.</p>` }] }],
    }],
  });
});

afterAll(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  await slowSite.close();
  await demo.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a server killed mid-run', () => {
  it('ends the cut-off runs FAILED with the reason at the next start, and keeps everything else', async () => {
    const first = await startServer(dataDir, 0);
    servers.push(first);
    expect(first.recovered).toBe(0);
    const client = httpsClient(readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'));
    try {
      const token = (await signIn({ client, origin: first.origin, clientId: LOCAL_CLIENT_ID, redirectUri: `${first.origin}/`, email: 'qa@example.com', password: 'ctpo-local' })).access_token;
      const api = apiCaller(client, first.origin, token);
      const run = (siteUrl: string, label: string): RunRequest => ({ USER_NAME: DEMO_USER, PASSWORD: DEMO_PASSWORD, CLIENT_URL: siteUrl, ORG_UNIT_ID: DEMO_ORG_UNIT, CLIENT_NAME: label, MODULES: [100] });

      const finished = await api.startRun(run(demo.origin, 'Finished before'));
      const done = await api.waitForEnd(finished.taskArn, 120_000);
      expect(done).toMatchObject({ status: 'SUCCEEDED' });
      // The link job-status handed out, as the app opens it.
      const reportUrl = `${String(done.outputUrl)}${finished.filename}.html`;
      const report = await (await client.fetch(reportUrl)).text();
      expect(report).toContain('Environmental Science 101');

      const cutOff = await api.startRun({ ...run(slowSite.origin, 'Cut off'), MODULES: [1] });
      await api.waitForStatus(cutOff.taskArn, 'RUNNING', 120_000);
      // One run at a time: this one waits behind the running one.
      const waiting = await api.startRun(run(demo.origin, 'Waiting'));
      expect((await api.jobStatus(waiting.taskArn)).body.status).toBe('PENDING');

      const cutOffRun = (await readJob(cutOff.taskArn))?.runnerRef ?? '';
      const runPid = Number(/-pid-(\d+)$/.exec(cutOffRun)?.[1]);
      expect(isAlive(runPid)).toBe(true);
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      // The run's own process ends too once its server is gone: nothing runs on unseen.
      for (let tries = 0; isAlive(runPid) && tries < 400; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(isAlive(runPid)).toBe(false);

      // The same port, so the same origin and issuer, as npm start's fixed 8443.
      const second = await startServer(dataDir, Number(new URL(first.origin).port));
      servers.push(second);
      expect(second.origin).toBe(first.origin);
      expect(second.recovered).toBe(2);

      // The token from before the kill still works: same signing key, same user.
      for (const id of [cutOff.taskArn, waiting.taskArn]) {
        const { status, body } = await api.jobStatus(id);
        expect(status).toBe(200);
        expect(body).toMatchObject({ status: 'FAILED', reason: formatMessage(RESTART_REASON) });
        expect(body.outputUrl).toBeUndefined();
      }
      expect((await api.jobStatus(finished.taskArn)).body).toMatchObject({ status: 'SUCCEEDED', outputUrl: expect.stringMatching(new RegExp(`^${first.origin}/reports/`)) });
      // A link handed out before the restart still opens the report: the key is kept in the data folder.
      const reopened = await client.fetch(reportUrl);
      expect(reopened.status).toBe(200);
      expect(await reopened.text()).toBe(report);

      const after = await api.startRun(run(demo.origin, 'After restart'));
      expect(await api.waitForEnd(after.taskArn, 120_000)).toMatchObject({ status: 'SUCCEEDED' });

      // A killed process had the password in memory only: nothing on disk holds it.
      for (const file of readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())) {
        expect(readFileSync(join(file.parentPath, file.name)).includes(DEMO_PASSWORD), file.name).toBe(false);
      }
    } finally {
      await client.close();
    }
  }, 400_000);
});
