// The local worker pool: a fixed number of runs at once, each in a process of its own at a lower CPU
// priority than the API (as on AWS, where a run is a task of its own): the engine parses HTML and
// runs axe, which is CPU-heavy, and the API's process must stay quick for everyone following their
// runs. The rest wait PENDING in arrival order. The store is written by this process only; a run
// sends its updates here, so stopping or killing a run can never leave the database locked. The
// credentials reach a run over the IPC channel only (job-worker-protocol.ts). A cancelled run is
// taken out of the queue, or its process is stopped (killed if it does not end in time) and the
// report files it may have begun are deleted. A run's process is course-facing code: the pool
// applies only what a run may set on its own job (runPatchOf), and refuses and logs anything else.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { getPriority, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { childEnvironment } from '../child-environment.ts';
import { AppError } from '../errors.ts';
import { formatMessage, msg, type Message } from '../i18n/messages.ts';
import { runTimeoutReason } from './execute-job.ts';
import { CANCELLED_REASON } from './cancel-job.ts';
import { createFileReportStore } from './file-report-store.ts';
import { failureDetail } from '../log.ts';
import type { Log } from '../log.ts';
import { JOB_STATUSES } from './job-status.ts';
import type { BaselineSource, JobPatch, BrightspaceCredentials, JobRecord, JobRunner, JobStore } from './types.ts';
import type { JobWorkerData, MainToWorker, WorkerToMain } from './job-worker-protocol.ts';

/** How much less CPU priority a run gets than the API (nice steps; 19 is the least there is). */
export const RUN_NICENESS = 10;

/**
 * The variables a run's process is given besides the base ones (childEnvironment): the engine's
 * settings (the browser, its priority and user, enhanced contrast) and Node's own (extra CA
 * certificates for a site on the local network, options, coverage).
 */
const RUN_ENVIRONMENT = ['CTPO_CHROMIUM', 'CTPO_BROWSER_NICENESS', 'CTPO_BROWSER_UID', 'CTPO_ENHANCED_CONTRAST', 'NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'NODE_V8_COVERAGE'];

export const CRASH_REASON = msg('reason.run.crashed');
export const SHUTDOWN_REASON = msg('reason.run.server-stopped');
export const SHUTDOWN_QUEUED_REASON = msg('reason.run.server-stopped-queued');

export interface LocalJobRunnerOptions {
  jobs: JobStore;
  /** What each report is compared with; absent: no comparison. */
  baselines?: BaselineSource;
  /** Folder the worker writes reports into. */
  reportsDir: string;
  allowPrivateTargets: boolean;
  /** Runs at once. Default 2. */
  concurrency?: number;
  /** Runs allowed to wait for a slot; more are refused as overloaded. Default 50. */
  maxQueued?: number;
  /** A run still going after this long is stopped and FAILED. Default 30 minutes. */
  runTimeoutMs?: number;
  /** How long a stopped run gets to end itself before its process is killed. Default 5 s. */
  stopGraceMs?: number;
  /** The job process's entry module (it calls serveJob, job-process.ts); the default runs executeJob. */
  workerEntry?: URL;
  progressIntervalMs?: number;
  /** The SQLite file where runs keep their verdicts (verdict cache); absent: runs keep none. */
  verdictsPath?: string;
  /** How long a link's good answer is reused by later runs; absent: the engine's default. */
  linkMaxAgeMs?: number;
  log?: Log;
}

export interface LocalJobRunner extends JobRunner {
  hasCapacity(): boolean;
  /** Runs it holds at most, running and waiting. */
  capacity(): number;
  /** Runs now in a process, and runs waiting. */
  stats(): { running: number; queued: number };
  /** Resolves when nothing runs or waits (tests, shutdown). */
  idle(): Promise<void>;
  /** Refuses new runs, ends queued ones and stops running ones, each FAILED with the reason. */
  close(): Promise<void>;
}

interface Queued {
  job: JobRecord;
  credentials: BrightspaceCredentials;
}

/**
 * What a run may set on its own job. The pool sets the runner reference itself, and nothing a run
 * sends may change the owner, the course or the report's name: job-status signs report links for
 * the owner it reads, so a run that could rewrite it could hand its report link to someone else.
 */
export const RUN_PATCH_FIELDS: readonly (keyof JobPatch)[] = ['status', 'startedAt', 'finishedAt', 'progress', 'reason', 'courseName', 'summary'];
const UPDATE_MESSAGE_FIELDS = new Set(['type', 'requestId', 'patch']);

/**
 * The patch of an update message from a run's process, when the message is one a run may send: no
 * field but those of the protocol (so no other job's id), and a patch of RUN_PATCH_FIELDS only.
 * Otherwise the names of what was refused, for the log (names only: the values are the run's).
 */
export function runPatchOf(message: Record<string, unknown>): { patch: JobPatch } | { refused: string[] } {
  const refused = Object.keys(message).filter((field) => !UPDATE_MESSAGE_FIELDS.has(field));
  const { patch } = message;
  if (!Number.isSafeInteger(message.requestId)) refused.push('requestId');
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return { refused: [...refused, 'patch'] };
  const fields = patch as Record<string, unknown>;
  refused.push(...Object.keys(fields).filter((field) => !(RUN_PATCH_FIELDS as readonly string[]).includes(field)).map((field) => `patch.${field}`));
  if (fields.status !== undefined && !(JOB_STATUSES as readonly unknown[]).includes(fields.status)) refused.push('patch.status');
  return refused.length === 0 ? { patch: fields as JobPatch } : { refused };
}

/** Sends to a run's process if it is still there to hear it. */
function tell(child: ChildProcess, message: MainToWorker): void {
  if (child.connected) child.send(message, () => undefined);
}

/** Lowers a run's CPU priority below this process's; a run that has already ended is left alone. */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, getPriority() + RUN_NICENESS));
  } catch {
    // The process has exited already, or the system does not allow it: the run goes on either way.
  }
}


export function createLocalJobRunner(options: LocalJobRunnerOptions): LocalJobRunner {
  const concurrency = options.concurrency ?? 2;
  const maxQueued = options.maxQueued ?? 50;
  const runTimeoutMs = options.runTimeoutMs ?? 30 * 60_000;
  const stopGraceMs = options.stopGraceMs ?? 5000;
  const workerEntry = fileURLToPath(options.workerEntry ?? new URL('./job-worker.ts', import.meta.url));
  const log = options.log ?? (() => undefined);
  // The runs waiting for a slot, in arrival order; a slot is held until the run's end is recorded.
  const queue = new PQueue({ concurrency });
  /** How to stop each run now in a process, by job id. */
  const running = new Map<string, (reason: Message, discardReport?: boolean) => void>();
  /** Runs waiting for a slot, and those of them cancelled meanwhile (they never start). */
  const waiting = new Set<string>();
  const cancelledWhileWaiting = new Set<string>();
  const reports = createFileReportStore(options.reportsDir);
  /** Every submitted run until its end (or its refusal at close) is recorded. */
  const outcomes = new Set<Promise<void>>();
  let closed = false;
  let started = 0;

  async function safeUpdate(id: string, patch: JobPatch): Promise<JobRecord | undefined> {
    try {
      return await options.jobs.update(id, patch);
    } catch (error) {
      log(`job ${id}: could not record ${JSON.stringify(patch)}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  function start({ job, credentials }: Queued): Promise<void> {
    const data: JobWorkerData = {
      job,
      credentials,
      reportsDir: options.reportsDir,
      allowPrivateTargets: options.allowPrivateTargets,
      progressIntervalMs: options.progressIntervalMs,
      compare: options.baselines !== undefined,
      ...(options.verdictsPath === undefined ? {} : { verdictsPath: options.verdictsPath }),
      ...(options.linkMaxAgeMs === undefined ? {} : { linkMaxAgeMs: options.linkMaxAgeMs }),
    };
    // The job and its credentials go over IPC only: no arguments. The environment holds only what a
    // run reads (the engine's settings, Node's), never a copy of the server's, whose secrets
    // (CTPO_LOCAL_PASSWORD, cloud keys) a run's process and its browser have no use for; it gains
    // the folder of Node's compile cache, which halves the time a run's process takes to load the engine.
    const env = { ...childEnvironment(RUN_ENVIRONMENT), NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache') };
    const child = fork(workerEntry, [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [], env });
    lowerPriority(child.pid);
    tell(child, { type: 'start', data });
    const sequence = ++started;
    let stopping: Message | undefined;
    let discard = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (reason: Message, discardReport = false): void => {
      discard ||= discardReport;
      if (stopping !== undefined) return;
      stopping = reason;
      tell(child, { type: 'stop', reason });
      killTimer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
    };
    const runTimer = setTimeout(() => stop(runTimeoutReason(runTimeoutMs)), runTimeoutMs);

    child.on('message', (message: WorkerToMain) => {
      if (message.type === 'update') {
        // Whatever the message says, only this run's own job is ever written.
        const checked = runPatchOf(message as unknown as Record<string, unknown>);
        if ('refused' in checked) {
          log(`job ${job.id}: its process sent an update a run may not make (${checked.refused.join(', ')}); refused, nothing changed`);
          if (Number.isSafeInteger(message.requestId)) tell(child, { type: 'updated', requestId: message.requestId, record: undefined });
          return;
        }
        void safeUpdate(job.id, checked.patch).then((record) => tell(child, { type: 'updated', requestId: message.requestId, record }));
      } else if (message.type === 'baseline' && options.baselines !== undefined) {
        void options.baselines.baselineFor(job).then(
          (baseline) => tell(child, { type: 'baseline', requestId: message.requestId, baseline }),
          (error: unknown) => tell(child, { type: 'baseline', requestId: message.requestId, error: error instanceof Error ? error.message : String(error) }),
        );
      } else if (message.type === 'crashed') {
        // Already without the password: the job process wrote it with failureDetail.
        log(`job ${job.id}: worker error: ${message.detail}`);
      }
    });
    child.on('error', (error) => log(`job ${job.id}: its process failed: ${failureDetail(error, [credentials.password])}`));
    const done = new Promise<void>((resolve) => {
      child.once('exit', () => {
        clearTimeout(runTimer);
        if (killTimer !== undefined) clearTimeout(killTimer);
        void (async () => {
          // A clean end wrote its own terminal status; whatever is still active here was cut off.
          await safeUpdate(job.id, { status: 'FAILED', reason: formatMessage(stopping ?? CRASH_REASON, job.language) });
          // Killed while writing, a cancelled run may have left some of its files: none is kept.
          if (discard) await reports.remove(job.filename).catch((error: unknown) => log(`job ${job.id}: its report could not be removed: ${error instanceof Error ? error.message : String(error)}`));
          running.delete(job.id);
          resolve();
        })();
      });
    });
    running.set(job.id, stop);
    void safeUpdate(job.id, { runnerRef: `local-${sequence}-pid-${child.pid ?? 'none'}` });
    return done;
  }

  const failQueued = (job: JobRecord) => safeUpdate(job.id, { status: 'FAILED', reason: formatMessage(SHUTDOWN_QUEUED_REASON, job.language) });

  return {
    async submit(job, credentials) {
      if (closed) throw new AppError('overloaded', msg('error.runs.shutting-down'));
      if (!this.hasCapacity()) throw new AppError('overloaded', msg('error.runs.busy'));
      const pending = safeUpdate(job.id, { status: 'PENDING' });
      waiting.add(job.id);
      // The run starts only once PENDING is recorded, so that it never writes over the run's own
      // RUNNING; a run the pool closed on, or that was cancelled, meanwhile never starts.
      const outcome = queue
        .add(async () => {
          await pending;
          waiting.delete(job.id);
          if (cancelledWhileWaiting.delete(job.id)) return;
          if (closed) await failQueued(job);
          else await start({ job, credentials });
        })
        // Only close() rejects a run: it left the queue before it started.
        .catch(() => failQueued(job).then(() => undefined))
        .finally(() => {
          waiting.delete(job.id);
          cancelledWhileWaiting.delete(job.id);
          outcomes.delete(outcome);
        });
      outcomes.add(outcome);
      await pending;
    },

    async cancel(job) {
      const stop = running.get(job.id);
      if (stop !== undefined) stop(CANCELLED_REASON, true);
      else if (waiting.has(job.id)) cancelledWhileWaiting.add(job.id);
    },

    hasCapacity() {
      return !closed && (queue.pending < concurrency || queue.size < maxQueued);
    },

    capacity() {
      return concurrency + maxQueued;
    },

    stats() {
      return { running: queue.pending, queued: queue.size };
    },

    idle() {
      return queue.onIdle();
    },

    async close() {
      closed = true;
      queue.clear();
      for (const stop of running.values()) stop(SHUTDOWN_REASON);
      await Promise.all(outcomes);
    },
  };
}
