// The QA API's wire contract (docs/design.md, "The QA API contract"). The app keeps its own copy of
// these shapes; the end-to-end tests prove the two agree. The words of the domain (statuses,
// scopes, phases, the summary) belong to their parts and are only used here.
import type { JobProgress, JobStatus } from '../jobs/job-status.ts';
import type { JobSummary } from '../report/summary.ts';

/** POST /api/toc */
export interface TocRequest {
  ORG_UNIT_ID: string | number;
  CLIENT_URL: string;
  USER_NAME: string;
  PASSWORD: string;
  /** The language of error messages: one of our 23 tags (else Accept-Language, else English). */
  LANGUAGE?: string;
}

/** The answer of POST /api/toc is Brightspace's own table-of-contents shape, passed through. */
export type { TocModule, TocResponse, TocTopic } from '../brightspace/types.ts';

/** POST /api/run-tests */
export interface RunTestsRequest extends TocRequest {
  CLIENT_NAME: string;
  MODULES: number[];
  /** Course-wide items to read besides the modules; absent: the modules only. */
  SCOPES?: string[];
  /** The language of the report and of every message about the run: one of our 23 tags. */
  LANGUAGE?: string;
}
export interface RunTestsResponse {
  message: string;
  taskArn: string;
  filename: string;
}

/** GET /api/job-status/{jobArn} */
export interface JobStatusResponse {
  status: JobStatus;
  outputUrl?: string;
  progress?: JobProgress;
  summary?: JobSummary;
  startedAt?: string;
  updatedAt?: string;
  reason?: string;
}

/** One run in GET /api/jobs: what it was asked to test, where it is, what it found. No credential. */
export interface JobListItem {
  taskArn: string;
  filename: string;
  status: JobStatus;
  client: string;
  siteUrl: string;
  orgUnitId: number;
  courseName?: string;
  modules: number[];
  scopes?: string[];
  language?: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  progress?: JobProgress;
  summary?: JobSummary;
  /** Once it SUCCEEDED: the report is at outputUrl + filename + '.html' (and '.json', '.csv'). */
  outputUrl?: string;
  /** Why it FAILED. */
  reason?: string;
}

/** GET /api/jobs?limit=&cursor= : the caller's runs, newest first. */
export interface JobsResponse {
  jobs: JobListItem[];
  /** Send as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/** A finding the caller dismissed for a course: who, when and why. */
export interface DismissalItem {
  fingerprint: string;
  by: string;
  at: string;
  reason?: string;
}

/** GET /api/dismissals?siteUrl=&orgUnitId= */
export interface DismissalsResponse {
  dismissals: DismissalItem[];
}

/** PUT /api/dismissals (answered with the dismissal as kept). */
export interface DismissalRequest {
  siteUrl: string;
  orgUnitId: number | string;
  fingerprint: string;
  reason?: string;
}

/** DELETE /api/dismissals?siteUrl=&orgUnitId=&fingerprint= */
export interface RestoreResponse {
  fingerprint: string;
  /** False when the finding was not dismissed (nothing changed). */
  restored: boolean;
}

/** Every error answer. */
export interface ErrorResponse {
  message: string;
  code: string;
}

export const MAX_BODY_BYTES = 64 * 1024;
