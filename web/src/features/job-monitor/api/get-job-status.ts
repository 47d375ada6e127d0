// GET /api/job-status/{jobArn}, read with the wire contract: what the monitor shows of a job.
import { apiRequest } from '@/lib/api-client';
import { JOB_STATUSES, jobStatusAnswer, type JobStatus, type JobStatusAnswer } from '@contract';

/** What the monitor reads of a job. `status` may be one this app does not know: it is shown as it came. */
export type JobStatusReport = JobStatusAnswer;
export type JobProgress = NonNullable<JobStatusAnswer['progress']>;
export type JobSummary = NonNullable<JobStatusAnswer['summary']>;

export function isKnownJobStatus(status: string): status is JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(status);
}

export function isTerminalJobStatus(status: string): boolean {
  return status === 'SUCCEEDED' || status === 'FAILED';
}

export async function getJobStatus(taskArn: string, signal?: AbortSignal): Promise<JobStatusReport> {
  const body = await apiRequest<unknown>(`/api/job-status/${encodeURIComponent(taskArn)}`, {
    base: 'jobStatus',
    ...(signal ? { signal } : {}),
  });
  return jobStatusAnswer.parse(body);
}
