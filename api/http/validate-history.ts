// Request validation for GET /api/jobs and GET/PUT/DELETE /api/dismissals: the query or the body
// becomes a clean, typed request, or an AppError `invalid_input` that names every field at fault.
import { AppError } from '../errors.ts';
import { joinMessages, msg, type Message } from '../i18n/messages.ts';
import type { CourseKey, JobCursor } from '../jobs/types.ts';
import { assertAllowedUrl } from '../net/address-guard.ts';
import type { ValidationPolicy } from './validate-request.ts';

export const HISTORY_LIMITS = {
  /** Runs per page of GET /api/jobs, and the default. */
  pageSize: 100,
  defaultPageSize: 20,
  reason: 500,
  siteUrl: 2048,
  /** Dismissed findings one user may keep for one course. */
  dismissalsPerCourse: 1000,
} as const;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const FINGERPRINT = /^[0-9a-f]{20}$/;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/;

function fail(problems: Message[]): never {
  throw new AppError('invalid_input', joinMessages(problems));
}

/** A page's end as the app holds it: opaque text it sends back as it came. */
export function encodeCursor(cursor: JobCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
}

function decodeCursor(text: string): JobCursor | undefined {
  if (text.length > 600 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [createdAt, id] = value as unknown[];
    if (typeof createdAt !== 'string' || !ISO_TIME.test(createdAt)) return undefined;
    if (typeof id !== 'string' || id === '' || id.length > 256 || CONTROL.test(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

export interface JobsQuery {
  limit: number;
  after?: JobCursor;
}

export function parseJobsQuery(query: URLSearchParams | undefined): JobsQuery {
  const problems: Message[] = [];
  const limitText = query?.get('limit');
  let limit: number = HISTORY_LIMITS.defaultPageSize;
  if (limitText !== null && limitText !== undefined) {
    limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : 0;
    if (limit < 1 || limit > HISTORY_LIMITS.pageSize) problems.push(msg('error.history.limit', { max: HISTORY_LIMITS.pageSize }));
  }
  const cursorText = query?.get('cursor');
  let after: JobCursor | undefined;
  if (cursorText !== null && cursorText !== undefined && cursorText !== '') {
    after = decodeCursor(cursorText);
    if (after === undefined) problems.push(msg('error.history.cursor'));
  }
  if (problems.length > 0) fail(problems);
  return after === undefined ? { limit } : { limit, after };
}

function readSite(value: unknown, problems: Message[], policy: ValidationPolicy): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') {
    problems.push(msg('error.history.site-required'));
    return undefined;
  }
  if (value.length > HISTORY_LIMITS.siteUrl) {
    problems.push(msg('error.field.too-long', { field: 'siteUrl', max: HISTORY_LIMITS.siteUrl }));
    return undefined;
  }
  try {
    // Kept by its origin, as run-tests keeps the site of a job: the same course is the same key.
    return assertAllowedUrl(value.trim(), { allowPrivateTargets: policy.allowPrivateTargets, allowHttp: policy.allowPrivateTargets }).origin;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problems.push(msg('error.history.site-refused', { problem: error.text }));
    return undefined;
  }
}

function readOrgUnit(value: unknown, problems: Message[]): number | undefined {
  const digits = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const id = /^\d{1,15}$/.test(digits) ? Number(digits) : 0;
  if (!Number.isSafeInteger(id) || id < 1) {
    problems.push(msg('error.history.org-unit'));
    return undefined;
  }
  return id;
}

function readFingerprint(value: unknown, problems: Message[]): string | undefined {
  if (typeof value !== 'string' || !FINGERPRINT.test(value)) {
    problems.push(msg('error.history.fingerprint'));
    return undefined;
  }
  return value;
}

function readReason(value: unknown, problems: Message[]): string | null | undefined {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value.trim() : undefined;
  // Line breaks are fine in a reason; other control characters are not.
  if (text === undefined || text.length > HISTORY_LIMITS.reason || CONTROL.test(text.replace(/\r?\n/g, ' '))) {
    problems.push(msg('error.history.reason', { max: HISTORY_LIMITS.reason }));
    return undefined;
  }
  return text === '' ? null : text;
}

/** GET /api/dismissals?siteUrl=&orgUnitId= */
export function parseCourseQuery(query: URLSearchParams | undefined, policy: ValidationPolicy): CourseKey {
  const problems: Message[] = [];
  const siteUrl = readSite(query?.get('siteUrl') ?? undefined, problems, policy);
  const orgUnitId = readOrgUnit(query?.get('orgUnitId') ?? undefined, problems);
  if (siteUrl === undefined || orgUnitId === undefined) fail(problems);
  return { siteUrl, orgUnitId };
}

/** DELETE /api/dismissals?siteUrl=&orgUnitId=&fingerprint= */
export function parseRestoreQuery(query: URLSearchParams | undefined, policy: ValidationPolicy): CourseKey & { fingerprint: string } {
  const problems: Message[] = [];
  const siteUrl = readSite(query?.get('siteUrl') ?? undefined, problems, policy);
  const orgUnitId = readOrgUnit(query?.get('orgUnitId') ?? undefined, problems);
  const fingerprint = readFingerprint(query?.get('fingerprint') ?? undefined, problems);
  if (siteUrl === undefined || orgUnitId === undefined || fingerprint === undefined) fail(problems);
  return { siteUrl, orgUnitId, fingerprint };
}

export interface DismissInput extends CourseKey {
  fingerprint: string;
  reason?: string;
}

/** PUT /api/dismissals */
export function parseDismissRequest(body: unknown, policy: ValidationPolicy): DismissInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('invalid_input', msg('error.request.not-object', { fields: 'siteUrl, orgUnitId, fingerprint and reason' }));
  }
  const fields = body as Record<string, unknown>;
  const problems: Message[] = [];
  const siteUrl = readSite(fields.siteUrl, problems, policy);
  const orgUnitId = readOrgUnit(fields.orgUnitId, problems);
  const fingerprint = readFingerprint(fields.fingerprint, problems);
  const reason = readReason(fields.reason, problems);
  if (siteUrl === undefined || orgUnitId === undefined || fingerprint === undefined || reason === undefined) fail(problems);
  return { siteUrl, orgUnitId, fingerprint, ...(reason === null ? {} : { reason }) };
}
