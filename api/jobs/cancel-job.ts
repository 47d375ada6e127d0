// Cancelling a run at its owner's request: the record is ended first (FAILED, "Cancelled"), so
// whatever the run still sends afterwards changes nothing and a report it writes is not kept; then
// the runtime stops the run itself (the local worker's process, or the Fargate task).
import { formatMessage, msg } from '../i18n/messages.ts';
import type { Log } from '../log.ts';
import { isTerminal } from './job-status.ts';
import type { JobRecord, JobRunner, JobStore } from './types.ts';

export const CANCELLED_REASON = msg('reason.run.cancelled');

export interface CancelJobDeps {
  jobs: Pick<JobStore, 'update'>;
  runner: Pick<JobRunner, 'cancel'>;
  now?: () => Date;
  log?: Log;
}

/**
 * Ends the job as cancelled and stops its run. Returns the ended record, or undefined when the job
 * had already ended (SUCCEEDED or FAILED) before the cancel landed: then nothing changes.
 */
export async function cancelJob(job: JobRecord, deps: CancelJobDeps): Promise<JobRecord | undefined> {
  if (isTerminal(job.status)) return undefined;
  const reason = formatMessage(CANCELLED_REASON, job.language);
  const finishedAt = (deps.now ?? (() => new Date()))().toISOString();
  // The store changes a job only while it is active: a run that ended meanwhile keeps its end.
  const ended = await deps.jobs.update(job.id, { status: 'FAILED', reason, finishedAt });
  if (ended === undefined || ended.status !== 'FAILED' || ended.reason !== reason || ended.finishedAt !== finishedAt) return undefined;
  try {
    await deps.runner.cancel?.(ended);
  } catch (error) {
    // The record already says cancelled, and a run that goes on regardless stops at its next
    // progress write and keeps no report (execute-job.ts): the owner's answer stands.
    deps.log?.(`job ${job.id}: its run could not be stopped: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  return ended;
}
