// A job's life, in order (docs/design.md, "The QA API contract"): accepted, waiting for a worker,
// running, cleaning up, then one of the two ends. The stores, the runners and the wire all speak it.
import type { RunPhase } from '../engine/progress.ts';

export const JOB_STATUSES = ['PROVISIONING', 'PENDING', 'RUNNING', 'DEPROVISIONING', 'SUCCEEDED', 'FAILED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_STATUSES: readonly JobStatus[] = ['SUCCEEDED', 'FAILED'];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** How far a job's run is: the engine's progress, as the job store keeps it. */
export interface JobProgress {
  done: number;
  total: number;
  phase?: RunPhase;
}
