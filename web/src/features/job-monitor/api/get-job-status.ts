import { apiRequest } from '@/lib/api-client';

export const KNOWN_JOB_STATUSES = ['PROVISIONING', 'PENDING', 'RUNNING', 'DEPROVISIONING', 'SUCCEEDED', 'FAILED'] as const;
export type KnownJobStatus = (typeof KNOWN_JOB_STATUSES)[number];

/** What a run is doing, in order; the progress counts the current phase's items. */
export const RUN_PHASES = ['sign-in', 'contents', 'topics', 'links', 'report'] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

export interface JobProgress {
  done: number;
  total: number;
  phase?: RunPhase;
}

/** What a finished run found, counted as its report counts it. */
export interface JobSummary {
  findings: { error: number; warning: number; info: number; review: number };
  topics: number;
  scanned: number;
  notScanned: number;
  documents: number;
  links: number;
}

/** What the monitor reads from GET /api/job-status/{jobArn}. `status` may be one we do not know. */
export interface JobStatusReport {
  status: string;
  outputUrl?: string;
  progress?: JobProgress;
  summary?: JobSummary;
  reason?: string;
}

export function isKnownJobStatus(status: string): status is KnownJobStatus {
  return (KNOWN_JOB_STATUSES as readonly string[]).includes(status);
}

export function isTerminalJobStatus(status: string): boolean {
  return status === 'SUCCEEDED' || status === 'FAILED';
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The summary when every count is there as a whole number; otherwise none (the links still show). */
function parseSummary(value: unknown): JobSummary | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { findings, topics, scanned, notScanned, documents, links } = value as Record<string, unknown>;
  if (typeof findings !== 'object' || findings === null) return undefined;
  const { error, warning, info, review } = findings as Record<string, unknown>;
  const counts = [error, warning, info, topics, scanned, notScanned, links];
  if (!counts.every(isCount)) return undefined;
  return {
    findings: { error: error as number, warning: warning as number, info: info as number, review: isCount(review) ? review : 0 },
    topics: topics as number,
    scanned: scanned as number,
    notScanned: notScanned as number,
    documents: isCount(documents) ? documents : 0,
    links: links as number,
  };
}

/** Keeps the fields the monitor uses, and only when they have the expected shape. */
export function parseJobStatusReport(body: unknown): JobStatusReport {
  if (typeof body !== 'object' || body === null) throw new Error('The job status is not a JSON object.');
  const { status, outputUrl, progress, reason, summary } = body as Record<string, unknown>;
  if (typeof status !== 'string' || status.trim() === '') throw new Error('The job status has no status.');
  const report: JobStatusReport = { status };
  if (typeof outputUrl === 'string' && outputUrl !== '') report.outputUrl = outputUrl;
  if (typeof reason === 'string' && reason.trim() !== '') report.reason = reason;
  const parsedSummary = parseSummary(summary);
  if (parsedSummary !== undefined) report.summary = parsedSummary;
  if (typeof progress === 'object' && progress !== null) {
    const { done, total, phase } = progress as Record<string, unknown>;
    if (typeof done === 'number' && typeof total === 'number' && Number.isFinite(done) && total > 0 && done >= 0) {
      report.progress = { done: Math.min(done, total), total };
      const knownPhase = RUN_PHASES.find((known) => known === phase);
      if (knownPhase !== undefined) report.progress.phase = knownPhase;
    }
  }
  return report;
}

export async function getJobStatus(taskArn: string, signal?: AbortSignal): Promise<JobStatusReport> {
  const body = await apiRequest<unknown>(`/api/job-status/${encodeURIComponent(taskArn)}`, {
    base: 'jobStatus',
    ...(signal ? { signal } : {}),
  });
  return parseJobStatusReport(body);
}
