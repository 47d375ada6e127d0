import { apiRequest } from '@/lib/api-client';

export interface RunCounts {
  error: number;
  warning: number;
  info: number;
}

/** One of the user's runs, as GET /api/jobs describes it (never a credential). */
export interface RecentRun {
  taskArn: string;
  filename: string;
  status: string;
  client: string;
  siteUrl: string;
  orgUnitId: number;
  courseName?: string;
  modules: number[];
  scopes?: string[];
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  counts?: RunCounts;
  /** Against the previous run of the course, when there was one. */
  changes?: { new: number; fixed: number; dismissed: number };
  /** Only for a succeeded run: its report is at outputUrl + filename + '.html'. */
  outputUrl?: string;
  reason?: string;
}

export interface RunPage {
  runs: RecentRun[];
  nextCursor?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** Keeps a run only when it has the fields the list needs, in the expected shape. */
export function parseRun(value: unknown): RecentRun | null {
  if (!isRecord(value)) return null;
  const { taskArn, filename, status, client, siteUrl, orgUnitId, modules, createdAt } = value;
  if (!text(taskArn) || typeof filename !== 'string' || !text(status) || typeof client !== 'string' || !text(siteUrl) || !text(createdAt)) return null;
  if (!isCount(orgUnitId) || !Array.isArray(modules) || !modules.every(isCount)) return null;
  const run: RecentRun = {
    taskArn: taskArn as string,
    filename,
    status: status as string,
    client,
    siteUrl: siteUrl as string,
    orgUnitId,
    modules: modules as number[],
    createdAt: createdAt as string,
  };
  const courseName = text(value.courseName);
  if (courseName) run.courseName = courseName;
  if (Array.isArray(value.scopes)) run.scopes = value.scopes.filter((scope): scope is string => typeof scope === 'string');
  const startedAt = text(value.startedAt);
  if (startedAt) run.startedAt = startedAt;
  const finishedAt = text(value.finishedAt);
  if (finishedAt) run.finishedAt = finishedAt;
  const outputUrl = text(value.outputUrl);
  if (outputUrl) run.outputUrl = outputUrl;
  const reason = text(value.reason);
  if (reason) run.reason = reason;
  const summary = value.summary;
  if (isRecord(summary) && isRecord(summary.findings)) {
    const { error, warning, info } = summary.findings;
    if (isCount(error) && isCount(warning) && isCount(info)) run.counts = { error, warning, info };
    const comparison = summary.comparison;
    if (isRecord(comparison) && isCount(comparison.new) && isCount(comparison.fixed) && isCount(comparison.dismissed)) {
      run.changes = { new: comparison.new, fixed: comparison.fixed, dismissed: comparison.dismissed };
    }
  }
  return run;
}

/** GET /api/jobs: a page of the signed-in user's runs, newest first. */
export async function listRuns(options: { cursor?: string; limit?: number; signal?: AbortSignal } = {}): Promise<RunPage> {
  const query = new URLSearchParams({ limit: String(options.limit ?? 10) });
  if (options.cursor) query.set('cursor', options.cursor);
  const body = await apiRequest<unknown>(`/api/jobs?${query.toString()}`, options.signal ? { signal: options.signal } : {});
  if (!isRecord(body) || !Array.isArray(body.jobs)) throw new Error('The list of runs is not in the expected form.');
  const page: RunPage = { runs: body.jobs.map(parseRun).filter((run): run is RecentRun => run !== null) };
  const next = text(body.nextCursor);
  if (next) page.nextCursor = next;
  return page;
}
