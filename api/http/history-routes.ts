// The routes of a user's runs over time: GET /api/jobs (their runs, newest first, in pages) and
// GET/PUT/DELETE /api/dismissals (the findings they set aside for a course). Same token rules,
// validation and errors as the other routes; a caller only ever sees and changes their own.
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import type { JobRecord } from '../jobs/types.ts';
import type { Dismissal } from '../report/model.ts';
import type { DismissalItem, DismissalsAnswer, JobListItem, JobsAnswer, RestoreAnswer } from './contract.ts';
import { jsonResponse } from './respond.ts';
import type { Caller } from './access-token.ts';
import { authenticate, reportLinkOf, withErrors } from './routes.ts';
import type { ApiDeps } from './routes.ts';
import type { ApiRequest, ApiResponse } from './types.ts';
import { HISTORY_LIMITS, encodeCursor, parseCourseQuery, parseDismissRequest, parseJobsQuery, parseRestoreQuery } from './validate-history.ts';
import { readJsonBody } from './validate-request.ts';

export const JOBS_PATH = '/api/jobs';
export const DISMISSALS_PATH = '/api/dismissals';

async function listItemOf(job: JobRecord, deps: ApiDeps, caller: Caller): Promise<JobListItem> {
  const item: JobListItem = {
    taskArn: job.id,
    filename: job.filename,
    status: job.status,
    client: job.client,
    siteUrl: job.siteUrl,
    orgUnitId: job.orgUnitId,
    modules: job.modules,
    createdAt: job.createdAt,
  };
  if (job.courseName !== undefined) item.courseName = job.courseName;
  if (job.excludeModules !== undefined) item.excludeModules = job.excludeModules;
  if (job.moduleTitles !== undefined) item.moduleTitles = job.moduleTitles;
  if (job.scopes !== undefined) item.scopes = job.scopes;
  // The caller started the run: the user name it typed comes back to them alone (never the password).
  if (job.userName !== undefined) item.userName = job.userName;
  if (job.language !== undefined) item.language = job.language;
  if (job.startedAt !== undefined) item.startedAt = job.startedAt;
  if (job.finishedAt !== undefined) item.finishedAt = job.finishedAt;
  if (job.status === 'SUCCEEDED') {
    // Signed anew on each call, as job-status does: the list renews the links of older runs.
    item.outputUrl = await reportLinkOf(job, deps, caller);
    if (job.summary !== undefined) item.summary = job.summary;
  } else if (job.status === 'FAILED') {
    if (job.reason !== undefined) item.reason = job.reason;
  } else if (job.progress !== undefined) {
    item.progress = job.progress;
  }
  return item;
}

/** GET /api/jobs?limit=&cursor= : the caller's runs, newest first. */
export function handleJobs(request: ApiRequest, deps: ApiDeps): Promise<ApiResponse> {
  return withErrors(request, deps, async () => {
    const caller = await authenticate(request, deps);
    const query = parseJobsQuery(request.query);
    const page = await deps.history.listByOwner(caller.sub, query);
    const body: JobsAnswer = { jobs: await Promise.all(page.jobs.map((job) => listItemOf(job, deps, caller))) };
    const finished = page.jobs.filter((job) => job.status === 'SUCCEEDED').map((job) => job.id);
    const signOffs = deps.protocols === undefined || finished.length === 0 ? new Map() : await deps.protocols.signOffs(caller.sub, finished);
    for (const item of body.jobs) {
      const signOff = signOffs.get(item.taskArn);
      if (signOff !== undefined) item.readyForLaunch = signOff;
    }
    if (page.next !== undefined) body.nextCursor = encodeCursor(page.next);
    return jsonResponse(request, deps.allowedOrigins, 200, body);
  });
}

const itemOf = (dismissal: Dismissal): DismissalItem => ({ ...dismissal });

/** GET, PUT and DELETE /api/dismissals: the caller's dismissed findings of one course. */
export function handleDismissals(request: ApiRequest, deps: ApiDeps): Promise<ApiResponse> {
  return withErrors(request, deps, async () => {
    const caller = await authenticate(request, deps);
    if (request.method === 'GET') {
      const course = parseCourseQuery(request.query, deps);
      const body: DismissalsAnswer = { dismissals: (await deps.dismissals.list(caller.sub, course)).map(itemOf) };
      return jsonResponse(request, deps.allowedOrigins, 200, body);
    }
    if (request.method === 'PUT') {
      const input = parseDismissRequest(readJsonBody(request), deps);
      const course = { siteUrl: input.siteUrl, orgUnitId: input.orgUnitId };
      const dismissal: Dismissal = {
        fingerprint: input.fingerprint,
        by: (await deps.nameOf?.(caller)) ?? caller.username,
        at: (deps.now ?? (() => new Date()))().toISOString(),
        ...(input.reason === undefined ? {} : { reason: input.reason }),
      };
      // The store keeps the limits in the write itself: a count read first would let a burst past them.
      const outcome = await deps.dismissals.put(caller.sub, course, dismissal, { perCourse: HISTORY_LIMITS.dismissalsPerCourse, courses: HISTORY_LIMITS.coursesWithDismissals });
      if (outcome === 'course-full') throw new AppError('invalid_input', msg('error.history.too-many-dismissals', { max: HISTORY_LIMITS.dismissalsPerCourse }));
      if (outcome === 'too-many-courses') throw new AppError('invalid_input', msg('error.history.too-many-courses', { max: HISTORY_LIMITS.coursesWithDismissals }));
      return jsonResponse(request, deps.allowedOrigins, 200, itemOf(dismissal));
    }
    const input = parseRestoreQuery(request.query, deps);
    const restored = await deps.dismissals.remove(caller.sub, { siteUrl: input.siteUrl, orgUnitId: input.orgUnitId }, input.fingerprint);
    const body: RestoreAnswer = { fingerprint: input.fingerprint, restored };
    return jsonResponse(request, deps.allowedOrigins, 200, body);
  });
}
