// A job's worker thread: runs executeJob with the credentials it was handed in memory, writes the
// reports itself and sends every job update to the main thread, which owns the store.
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../errors.ts';
import { executeJob } from './execute-job.ts';
import { createFileReportStore } from './file-report-store.ts';
import type { JobWorkerData, MainToWorker, WorkerToMain } from './job-worker-protocol.ts';
import type { BaselineSource, JobPatch, JobRecord, JobStore } from './types.ts';

const port = parentPort;
if (port === null) throw new Error('job-worker.ts runs as a worker thread of the local job runner.');

const data = workerData as JobWorkerData;
const stop = new AbortController();
const replies = new Map<number, (record: JobRecord | undefined) => void>();
const baselineReplies = new Map<number, (reply: Extract<MainToWorker, { type: 'baseline' }>) => void>();
let nextRequestId = 1;

port.on('message', (message: MainToWorker) => {
  if (message.type === 'updated') {
    replies.get(message.requestId)?.(message.record);
    replies.delete(message.requestId);
  } else if (message.type === 'baseline') {
    baselineReplies.get(message.requestId)?.(message);
    baselineReplies.delete(message.requestId);
  } else if (message.type === 'stop') {
    stop.abort(new AppError('internal', message.reason));
  }
});

const jobs: Pick<JobStore, 'update'> = {
  update(_id: string, patch: JobPatch) {
    return new Promise((resolve) => {
      const requestId = nextRequestId++;
      replies.set(requestId, resolve);
      const message: WorkerToMain = { type: 'update', requestId, patch };
      port.postMessage(message);
    });
  },
};

// The main thread holds the stores; the worker asks it once its report is ready.
const baselines: BaselineSource = {
  baselineFor() {
    return new Promise((resolve, reject) => {
      const requestId = nextRequestId++;
      baselineReplies.set(requestId, (reply) => (reply.baseline === undefined ? reject(new Error(reply.error ?? 'no baseline')) : resolve(reply.baseline)));
      const message: WorkerToMain = { type: 'baseline', requestId };
      port.postMessage(message);
    });
  },
};

await executeJob({
  job: data.job,
  credentials: data.credentials,
  jobs,
  reports: createFileReportStore(data.reportsDir),
  ...(data.compare ? { baselines } : {}),
  allowPrivateTargets: data.allowPrivateTargets,
  signal: stop.signal,
  progressIntervalMs: data.progressIntervalMs,
  log: (line) => console.error(line),
});
port.close();
