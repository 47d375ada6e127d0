// The messages between the worker pool (the API's process) and a job's own process, over the IPC
// channel of child_process.fork: the credentials travel only here, never in argv, the environment
// or a file.
import type { Message } from '../i18n/messages.ts';
import type { BrightspaceCredentials, JobPatch, JobRecord, RunBaseline } from './types.ts';

export interface JobWorkerData {
  job: JobRecord;
  /** Held in the job process's memory for the run only. */
  credentials: BrightspaceCredentials;
  reportsDir: string;
  allowPrivateTargets: boolean;
  progressIntervalMs?: number;
  /** Whether the pool can give the run a baseline to compare with (it holds the stores). */
  compare: boolean;
  /** The SQLite file of the verdict cache (the job store's), opened by the job's process; none: no cache. */
  verdictsPath?: string;
  /** How long a link's good answer is reused (the server's setting); absent: the engine's default. */
  linkMaxAgeMs?: number;
}

export type WorkerToMain =
  | { type: 'update'; requestId: number; patch: JobPatch }
  /** The run's report is ready: what should it be compared with? */
  | { type: 'baseline'; requestId: number }
  /** The run threw: where and why, as it may be logged (api/log.ts). */
  | { type: 'crashed'; detail: string };

export type MainToWorker =
  /** The first message: the job and its credentials. */
  | { type: 'start'; data: JobWorkerData }
  | { type: 'updated'; requestId: number; record: JobRecord | undefined }
  /** The baseline, or the reason it could not be read (the run then goes without a comparison). */
  | { type: 'baseline'; requestId: number; baseline?: RunBaseline; error?: string }
  /** Stop the run: the reason becomes the job's reason. */
  | { type: 'stop'; reason: Message };
