// Request validation for GET /api/jobs and GET/PUT/DELETE /api/dismissals: the query or the body is
// checked against the wire contract (contract.ts) and becomes a clean, typed request, or an AppError
// `invalid_input` that names every field at fault, worded from our catalogue.
import * as z from 'zod/mini';
import { AppError } from '../errors.ts';
import { joinMessages, msg, type Message } from '../i18n/messages.ts';
import type { BrokenRule } from '../engine/run-input-rules.ts';
import type { CourseKey, JobCursor } from '../jobs/types.ts';
import { CONTROL_CHARACTER } from '../engine/run-input-rules.ts';
import { HISTORY_LIMITS, courseQuery, dismissalRequest, jobsQuery, restoreQuery } from './contract.ts';
import { asObject, brokenRulesByField, guardedOrigin, type ValidationPolicy } from './validate-request.ts';

export { HISTORY_LIMITS };

function fail(problems: Message[]): never {
  throw new AppError('invalid_input', joinMessages(problems));
}

/** A page's end as the app holds it: opaque text it sends back as it came. */
export function encodeCursor(cursor: JobCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
}

/** What a cursor holds: the createdAt and id of the page's last run. */
const cursorContent = z.tuple([
  z.string().check(z.regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/)),
  z.string().check(z.minLength(1), z.maxLength(256), z.refine((id) => !CONTROL_CHARACTER.test(id))),
]);

/** The page's end inside a cursor the contract let through; undefined when it is not one of ours. */
function decodeCursor(text: string): JobCursor | undefined {
  try {
    const content = cursorContent.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return content.success ? { createdAt: content.data[0], id: content.data[1] } : undefined;
  } catch {
    return undefined;
  }
}

export interface JobsQuery {
  limit: number;
  after?: JobCursor;
}

export function parseJobsQuery(query: URLSearchParams | undefined): JobsQuery {
  // An empty cursor is none: the first page.
  const result = jobsQuery.safeParse({ limit: query?.get('limit') ?? undefined, cursor: query?.get('cursor') || undefined });
  const broken = result.success ? new Map<PropertyKey, BrokenRule>() : brokenRulesByField(result.error.issues);
  const cursorText = result.success ? result.data.cursor : undefined;
  const after = cursorText === undefined ? undefined : decodeCursor(cursorText);
  const problems: Message[] = [];
  if (broken.has('limit')) problems.push(msg('error.history.limit', { max: HISTORY_LIMITS.pageSize }));
  if (broken.has('cursor') || (cursorText !== undefined && after === undefined)) problems.push(msg('error.history.cursor'));
  if (!result.success || problems.length > 0) fail(problems);
  const limit = result.data.limit ?? HISTORY_LIMITS.defaultPageSize;
  return after === undefined ? { limit } : { limit, after };
}

type HistoryField = 'siteUrl' | 'orgUnitId' | 'fingerprint' | 'reason';

function historyProblem(field: HistoryField, broken: BrokenRule): Message {
  switch (field) {
    case 'siteUrl':
      return broken.rule === 'too-long' ? msg('error.field.too-long', { field, max: broken.max ?? 0 }) : msg('error.history.site-required');
    case 'orgUnitId':
      return msg('error.history.org-unit');
    case 'fingerprint':
      return msg('error.history.fingerprint');
    case 'reason':
      return msg('error.history.reason', { max: HISTORY_LIMITS.reason });
  }
}

/**
 * Checks fields against a history schema and guards the site address (kept by its origin, as
 * run-tests keeps the site of a job: the same course is the same key). The value, or every
 * problem in the order of `order`.
 */
function checked<S extends typeof courseQuery | typeof restoreQuery | typeof dismissalRequest>(
  schema: S,
  fields: Record<string, unknown>,
  order: readonly HistoryField[],
  policy: ValidationPolicy,
): { request: z.output<S>; siteUrl: string } {
  const result = schema.safeParse(fields);
  const broken = result.success ? new Map<PropertyKey, BrokenRule>() : brokenRulesByField(result.error.issues);
  const site = broken.has('siteUrl') ? undefined : guardedOrigin((fields.siteUrl as string).trim(), policy);
  const problems: Message[] = [];
  for (const field of order) {
    const rule = broken.get(field);
    if (rule !== undefined) problems.push(historyProblem(field, rule));
    else if (field === 'siteUrl' && site !== undefined && 'refused' in site) problems.push(msg('error.history.site-refused', { problem: site.refused.text }));
  }
  if (!result.success || site === undefined || !('origin' in site)) fail(problems);
  return { request: result.data as z.output<S>, siteUrl: site.origin };
}

const queryFields = (query: URLSearchParams | undefined, names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, query?.get(name) ?? undefined]));

/** GET /api/dismissals?siteUrl=&orgUnitId= */
export function parseCourseQuery(query: URLSearchParams | undefined, policy: ValidationPolicy): CourseKey {
  const { request, siteUrl } = checked(courseQuery, queryFields(query, ['siteUrl', 'orgUnitId']), ['siteUrl', 'orgUnitId'], policy);
  return { siteUrl, orgUnitId: request.orgUnitId };
}

/** DELETE /api/dismissals?siteUrl=&orgUnitId=&fingerprint= */
export function parseRestoreQuery(query: URLSearchParams | undefined, policy: ValidationPolicy): CourseKey & { fingerprint: string } {
  const order = ['siteUrl', 'orgUnitId', 'fingerprint'] as const;
  const { request, siteUrl } = checked(restoreQuery, queryFields(query, order), order, policy);
  return { siteUrl, orgUnitId: request.orgUnitId, fingerprint: request.fingerprint };
}

export interface DismissInput extends CourseKey {
  fingerprint: string;
  reason?: string;
}

/** PUT /api/dismissals */
export function parseDismissRequest(body: unknown, policy: ValidationPolicy): DismissInput {
  const fields = asObject(body, 'siteUrl, orgUnitId, fingerprint and reason');
  const { request, siteUrl } = checked(dismissalRequest, fields, ['siteUrl', 'orgUnitId', 'fingerprint', 'reason'], policy);
  // A blank reason is none.
  return { siteUrl, orgUnitId: request.orgUnitId, fingerprint: request.fingerprint, ...(request.reason ? { reason: request.reason } : {}) };
}
