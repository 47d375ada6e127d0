// The job's side of the worker protocol, in the process the pool starts for one run: it takes the
// job and its credentials from the first IPC message, sends every job update to the pool (which
// owns the store) and waits for the answer, asks it for the run's baseline (it holds the history
// too), turns a stop request into an abort, reports a crash
// without the password, and ends at once if the pool's process goes away.
import { AppError } from '../errors.ts';
import { failureDetail } from '../log.ts';
import type { JobWorkerData, MainToWorker, WorkerToMain } from './job-worker-protocol.ts';
import type { BaselineSource, JobPatch, JobRecord, JobStore } from './types.ts';

export interface JobProcessContext {
  data: JobWorkerData;
  /** Updates go to the pool, which writes them; each resolves with the record as stored. */
  jobs: Pick<JobStore, 'update'>;
  /** What the run's report compares itself with, read by the pool from its stores. */
  baselines: BaselineSource;
  /** Aborted when the pool asks the run to stop; the reason is an AppError with the job's reason. */
  signal: AbortSignal;
}

/** Exit codes the pool reads: the run crashed, or the pool went away. */
export const CRASHED_EXIT_CODE = 2;
export const ORPHANED_EXIT_CODE = 3;

export function serveJob(run: (context: JobProcessContext) => Promise<void>): void {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error('This module runs as a job process of the local job runner (child_process.fork).');
  const post = (message: WorkerToMain): Promise<void> =>
    new Promise((resolve) => {
      if (!process.connected) return resolve();
      send(message, undefined, {}, () => resolve());
    });

  const stop = new AbortController();
  const replies = new Map<number, (record: JobRecord | undefined) => void>();
  const baselineReplies = new Map<number, (reply: Extract<MainToWorker, { type: 'baseline' }>) => void>();
  let nextRequestId = 1;
  let secrets: string[] = [];

  const crash = (error: unknown): void => {
    void post({ type: 'crashed', detail: failureDetail(error, secrets) }).finally(() => process.exit(CRASHED_EXIT_CODE));
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  // Nobody is left to record what this run does: it ends now rather than run on unseen.
  process.on('disconnect', () => process.exit(ORPHANED_EXIT_CODE));

  const jobs: Pick<JobStore, 'update'> = {
    update(_id: string, patch: JobPatch) {
      return new Promise((resolve) => {
        const requestId = nextRequestId++;
        replies.set(requestId, resolve);
        void post({ type: 'update', requestId, patch });
      });
    },
  };

  const baselines: BaselineSource = {
    baselineFor() {
      return new Promise((resolve, reject) => {
        const requestId = nextRequestId++;
        baselineReplies.set(requestId, (reply) => (reply.baseline === undefined ? reject(new Error(reply.error ?? 'no baseline')) : resolve(reply.baseline)));
        void post({ type: 'baseline', requestId });
      });
    },
  };

  process.on('message', (message: MainToWorker) => {
    if (message.type === 'start') {
      secrets = [message.data.credentials.password];
      run({ data: message.data, jobs, baselines, signal: stop.signal }).then(() => process.exit(0), crash);
    } else if (message.type === 'updated') {
      replies.get(message.requestId)?.(message.record);
      replies.delete(message.requestId);
    } else if (message.type === 'baseline') {
      baselineReplies.get(message.requestId)?.(message);
      baselineReplies.delete(message.requestId);
    } else if (message.type === 'stop') {
      stop.abort(new AppError('internal', message.reason));
    }
  });
}
