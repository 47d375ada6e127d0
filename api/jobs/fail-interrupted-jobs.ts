// A run lives in a worker of the process that started it: after a restart nothing is running
// any more, so every job the store still shows as active is ended, with a reason the user can act on.
import { JOB_STATUSES, isTerminal } from './job-status.ts';
import { formatMessage, msg, type Message } from '../i18n/messages.ts';
import type { JobStore } from './types.ts';

export const RESTART_REASON = msg('reason.run.server-restarted');

const activeStatuses = JOB_STATUSES.filter((status) => !isTerminal(status));

/** Marks every non-terminal job FAILED; returns how many were ended. */
export async function failInterruptedJobs(store: JobStore, reason: Message = RESTART_REASON): Promise<number> {
  const interrupted = await store.listByStatus(activeStatuses);
  for (const job of interrupted) {
    await store.update(job.id, { status: 'FAILED', reason: formatMessage(reason, job.language) });
  }
  return interrupted.length;
}
