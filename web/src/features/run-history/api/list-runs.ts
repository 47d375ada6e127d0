// GET /api/jobs, read with the wire contract: the user's runs, a page at a time.
import { apiRequest } from '@/lib/api-client';
import { jobsAnswer, type JobListItem } from '@contract';

/** One of the user's runs, as GET /api/jobs describes it (never a credential). */
export type RecentRun = JobListItem;

export interface RunPage {
  runs: RecentRun[];
  nextCursor?: string;
}

/** GET /api/jobs: a page of the signed-in user's runs, newest first; a run it cannot read is left out. */
export async function listRuns(options: { cursor?: string; limit?: number; signal?: AbortSignal } = {}): Promise<RunPage> {
  const query = new URLSearchParams({ limit: String(options.limit ?? 10) });
  if (options.cursor) query.set('cursor', options.cursor);
  const body = await apiRequest<unknown>(`/api/jobs?${query.toString()}`, options.signal ? { signal: options.signal } : {});
  const page = jobsAnswer.parse(body);
  return page.nextCursor === undefined ? { runs: page.jobs } : { runs: page.jobs, nextCursor: page.nextCursor };
}
