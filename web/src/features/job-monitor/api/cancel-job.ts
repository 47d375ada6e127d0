// DELETE /api/jobs/{jobArn}, read with the wire contract: cancels the run; the answer is its status.
import { apiRequest } from '@/lib/api-client';
import { jobStatusAnswer } from '@contract';
import type { JobStatusReport } from '@/features/job-monitor/api/get-job-status';

export async function cancelJob(taskArn: string): Promise<JobStatusReport> {
  const body = await apiRequest<unknown>(`/api/jobs/${encodeURIComponent(taskArn)}`, { method: 'DELETE' });
  return jobStatusAnswer.parse(body);
}
