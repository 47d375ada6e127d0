// The messages between the worker pool (main thread) and a job's worker thread.
import type { Message } from '../i18n/messages.ts';
import type { BrightspaceCredentials, JobPatch, JobRecord } from './types.ts';

export interface JobWorkerData {
  job: JobRecord;
  /** Held in the worker's memory for the run only. */
  credentials: BrightspaceCredentials;
  reportsDir: string;
  allowPrivateTargets: boolean;
  progressIntervalMs?: number;
}

export type WorkerToMain = { type: 'update'; requestId: number; patch: JobPatch };

export type MainToWorker =
  | { type: 'updated'; requestId: number; record: JobRecord | undefined }
  /** Stop the run: the reason becomes the job's reason. */
  | { type: 'stop'; reason: Message };
