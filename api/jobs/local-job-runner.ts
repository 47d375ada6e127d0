// The local worker pool: a fixed number of runs at once, each in its own worker thread (the engine
// parses HTML and runs axe, which is CPU-heavy: the API thread stays free for pollers), the rest
// waiting PENDING in arrival order. The store is written by this thread only; a worker sends its
// updates here, so stopping a worker can never leave the database locked.
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors.ts';
import { formatMessage, msg, type Message } from '../i18n/messages.ts';
import { runTimeoutReason } from './execute-job.ts';
import type { Log } from '../http/respond.ts';
import type { BaselineSource, JobPatch, BrightspaceCredentials, JobRecord, JobRunner, JobStore } from './types.ts';
import type { JobWorkerData, MainToWorker, WorkerToMain } from './job-worker-protocol.ts';

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
  /** How long a stopped run gets to end itself before its thread is terminated. Default 5 s. */
  stopGraceMs?: number;
  /** The worker's entry module; the default runs executeJob. */
  workerEntry?: URL;
  progressIntervalMs?: number;
  log?: Log;
}

export interface LocalJobRunner extends JobRunner {
  hasCapacity(): boolean;
  /** Runs now in a worker, and runs waiting. */
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

interface Running {
  job: JobRecord;
  worker: Worker;
  stop(reason: Message): void;
  done: Promise<void>;
}


export function createLocalJobRunner(options: LocalJobRunnerOptions): LocalJobRunner {
  const concurrency = options.concurrency ?? 2;
  const maxQueued = options.maxQueued ?? 50;
  const runTimeoutMs = options.runTimeoutMs ?? 30 * 60_000;
  const stopGraceMs = options.stopGraceMs ?? 5000;
  const workerEntry = options.workerEntry ?? new URL('./job-worker.ts', import.meta.url);
  const log = options.log ?? (() => undefined);
  const queue: Queued[] = [];
  const running = new Set<Running>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const settleIdle = (): void => {
    if (running.size > 0 || queue.length > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  async function safeUpdate(id: string, patch: JobPatch): Promise<JobRecord | undefined> {
    try {
      return await options.jobs.update(id, patch);
    } catch (error) {
      log(`job ${id}: could not record ${JSON.stringify(patch)}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  function start({ job, credentials }: Queued): void {
    const data: JobWorkerData = {
      job,
      credentials,
      reportsDir: options.reportsDir,
      allowPrivateTargets: options.allowPrivateTargets,
      progressIntervalMs: options.progressIntervalMs,
      compare: options.baselines !== undefined,
    };
    const worker = new Worker(workerEntry, { workerData: data, name: `ctpo-job-${job.id}` });
    let stopping: Message | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (reason: Message): void => {
      if (stopping !== undefined) return;
      stopping = reason;
      const message: MainToWorker = { type: 'stop', reason };
      worker.postMessage(message);
      killTimer = setTimeout(() => void worker.terminate(), stopGraceMs);
    };
    const runTimer = setTimeout(() => stop(runTimeoutReason(runTimeoutMs)), runTimeoutMs);

    worker.on('message', (message: WorkerToMain) => {
      if (message.type === 'update') {
        void safeUpdate(job.id, message.patch).then((record) => {
          const reply: MainToWorker = { type: 'updated', requestId: message.requestId, record };
          worker.postMessage(reply);
        });
      } else if (message.type === 'baseline' && options.baselines !== undefined) {
        void options.baselines.baselineFor(job).then(
          (baseline): MainToWorker => ({ type: 'baseline', requestId: message.requestId, baseline }),
          (error: unknown): MainToWorker => ({ type: 'baseline', requestId: message.requestId, error: error instanceof Error ? error.message : String(error) }),
        ).then((reply) => worker.postMessage(reply));
      }
    });
    worker.on('error', (error) => {
      // The worker's own redaction has run; this is an uncaught error, logged without the password.
      log(`job ${job.id}: worker error: ${(error.stack ?? error.message).split(credentials.password).join('[redacted]')}`);
    });
    const done = new Promise<void>((resolve) => {
      worker.once('exit', () => {
        clearTimeout(runTimer);
        if (killTimer !== undefined) clearTimeout(killTimer);
        void (async () => {
          // A clean end wrote its own terminal status; whatever is still active here was cut off.
          await safeUpdate(job.id, { status: 'FAILED', reason: formatMessage(stopping ?? CRASH_REASON, job.language) });
          running.delete(entry);
          pump();
          settleIdle();
          resolve();
        })();
      });
    });
    const entry: Running = { job, worker, stop, done };
    running.add(entry);
    void safeUpdate(job.id, { runnerRef: `local-worker-${worker.threadId}` });
  }

  function pump(): void {
    while (!closed && running.size < concurrency && queue.length > 0) {
      start(queue.shift()!);
    }
  }

  return {
    async submit(job, credentials) {
      if (closed) throw new AppError('overloaded', msg('error.runs.shutting-down'));
      if (!this.hasCapacity()) throw new AppError('overloaded', msg('error.runs.busy'));
      queue.push({ job, credentials });
      await safeUpdate(job.id, { status: 'PENDING' });
      pump();
    },

    hasCapacity() {
      return !closed && (running.size < concurrency || queue.length < maxQueued);
    },

    stats() {
      return { running: running.size, queued: queue.length };
    },

    idle() {
      if (running.size === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    async close() {
      closed = true;
      const waiting = queue.splice(0);
      await Promise.all(waiting.map(({ job }) => safeUpdate(job.id, { status: 'FAILED', reason: formatMessage(SHUTDOWN_QUEUED_REASON, job.language) })));
      const active = [...running];
      for (const entry of active) entry.stop(SHUTDOWN_REASON);
      await Promise.all(active.map((entry) => entry.done));
      settleIdle();
    },
  };
}
