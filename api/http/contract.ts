// The QA API's wire contract (docs/design.md, "The QA API contract"). The app keeps its own copy of
// these shapes; the end-to-end tests prove the two agree.

export const JOB_STATUSES = ['PROVISIONING', 'PENDING', 'RUNNING', 'DEPROVISIONING', 'SUCCEEDED', 'FAILED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_STATUSES: readonly JobStatus[] = ['SUCCEEDED', 'FAILED'];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** POST /api/toc */
export interface TocRequest {
  ORG_UNIT_ID: string | number;
  CLIENT_URL: string;
  USER_NAME: string;
  PASSWORD: string;
}

/** Brightspace's own table-of-contents shape, passed through (unknown fields kept). */
export interface TocModule {
  ModuleId: number;
  Title: string;
  Modules?: TocModule[];
  Topics?: TocTopic[];
  [field: string]: unknown;
}
export interface TocTopic {
  TopicId: number;
  Title: string;
  [field: string]: unknown;
}
export interface TocResponse {
  Modules: TocModule[];
}

/** POST /api/run-tests */
export interface RunTestsRequest extends TocRequest {
  CLIENT_NAME: string;
  MODULES: number[];
}
export interface RunTestsResponse {
  message: string;
  taskArn: string;
  filename: string;
}

/** What a run is doing, in order; the progress counts the current phase's items. */
export const RUN_PHASES = ['sign-in', 'contents', 'topics', 'links', 'report'] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

export interface JobProgress {
  done: number;
  total: number;
  phase?: RunPhase;
}

/** GET /api/job-status/{jobArn} */
export interface JobStatusResponse {
  status: JobStatus;
  outputUrl?: string;
  progress?: JobProgress;
  startedAt?: string;
  updatedAt?: string;
  reason?: string;
}

/** Every error answer. */
export interface ErrorResponse {
  message: string;
  code: string;
}

export const MAX_BODY_BYTES = 64 * 1024;
