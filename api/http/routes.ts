// The QA API's routes of one run (history-routes.ts has a user's runs over time and dismissals; docs/design.md, "The QA
// API contract"). Each handler is complete on its own (token, validation, CORS, errors), so an AWS
// Lambda function can serve one route by calling it directly; createApi (create-api.ts) routes among them for the local server.
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.ts';
import { formatMessage, msg } from '../i18n/messages.ts';
import type { LoadTableOfContentsInput } from '../engine/load-table-of-contents.ts';
import { assertAllowedDestination, assertAllowedUrl } from '../net/address-guard.ts';
import { localSwitchFor, sitePolicy } from '../brightspace/session.ts';
import type { Resolver } from '../net/address-guard.ts';
import type { DismissalStore, JobHistory, JobRecord, JobRunner, JobStore, ProtocolStore, ReportStore } from '../jobs/types.ts';
import type { JobStatusAnswer, RunTestsAnswer } from './contract.ts';
import { bearerTokenOf } from './access-token.ts';
import type { Caller, TokenVerifier } from './access-token.ts';
import { reportFilename } from '../jobs/report-filename.ts';
import { cancelJob } from '../jobs/cancel-job.ts';
import { type ReportLinkRevocations, signedReportOutputUrl } from './report-links.ts';
import type { ReportSigningKey } from './report-links.ts';
import { errorResponse, jsonResponse, jsonTextResponse } from './respond.ts';
import type { ConcurrencyLimit } from './concurrency-limit.ts';
import type { Log } from '../log.ts';
import type { ApiRequest, ApiResponse } from './types.ts';
import { languageOfBody, parseJobId, parseRunTestsRequest, parseTocRequest, readJsonBody } from './validate-request.ts';
import { DEFAULT_LANGUAGE, languageOfAcceptHeader, type Language } from '../i18n/languages.ts';

export interface ApiDeps {
  verifier: TokenVerifier;
  jobs: JobStore;
  /** A user's runs over time (GET /api/jobs). */
  history: JobHistory;
  /** Findings each user dismissed per course (/api/dismissals). */
  dismissals: DismissalStore;
  /** Each user's protocols, answers and sign-offs (/api/protocols); absent where no route needs them. */
  protocols?: ProtocolStore;
  /** The finished reports, written again when a run is signed off (/api/protocols/runs/). */
  reports?: ReportStore;
  /** The name a dismissal is recorded under (the caller's e-mail, where it is known). Default: the token's user name. */
  nameOf?: (caller: Caller) => Promise<string>;
  runner: JobRunner;
  /**
   * The engine's table-of-contents reader (loadTableOfContentsJson in
   * api/engine/load-table-of-contents.ts): the answer of POST /api/toc as JSON text, sent as it is.
   */
  loadTableOfContents: (input: LoadTableOfContentsInput) => Promise<string>;
  /** Tables of contents one user may be loading at once; one more is answered 429. Default 2. */
  tocLoads?: ConcurrencyLimit;
  /**
   * Base URL of the reports, ending in '/'. Job-status answers it with a signed capability for the
   * job's report appended (api/http/report-links.ts): the report is at outputUrl + filename + '.html'.
   */
  outputUrl: string;
  /** The key report links are signed with now. */
  reportSigningKey: ReportSigningKey;
  /** How long a report link handed out keeps working. Default REPORT_LINK_LIFETIME_MS. */
  reportLinkLifetimeMs?: number;
  /** Where an owner's revocation of their report links goes; without it the route says it is not served. */
  reportLinkRevocations?: ReportLinkRevocations;
  /** App origins allowed to call the API from a browser (exact match). */
  allowedOrigins: readonly string[];
  /** The address guard's local-use switch. Off on AWS. */
  allowPrivateTargets: boolean;
  /** Runs one user may have not yet finished; one more is answered 429. */
  maxActiveRunsPerUser: number;
  /** Runs the whole deployment may have not yet finished; one more is answered 429. */
  maxActiveRuns: number;
  /** How long POST /api/toc may take before it gives up. Default 60 s. */
  tocTimeoutMs?: number;
  now?: () => Date;
  log?: Log;
  /** DNS for the address guard; tests fake the answers here. Default: the system resolver. */
  resolve?: Resolver;
}

export const JOB_STATUS_PREFIX = '/api/job-status/';
/** DELETE /api/jobs/{jobArn}: cancel a run. */
export const JOB_PREFIX = '/api/jobs/';

export async function authenticate(request: ApiRequest, deps: ApiDeps): Promise<Caller> {
  return deps.verifier.verify(bearerTokenOf(request.headers.authorization));
}

/**
 * The language a route answers in: the body's LANGUAGE when it names one of ours, else the best
 * of Accept-Language (the app sends its chosen language there), else English.
 */
export function languageOfRequest(request: ApiRequest): Language {
  return languageOfBody(request.body) ?? languageOfAcceptHeader(request.headers['accept-language']) ?? DEFAULT_LANGUAGE;
}

export async function withErrors(
  request: ApiRequest,
  deps: ApiDeps,
  work: (secrets: string[]) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  // Filled with the password as soon as it is read, so a logged failure never carries it.
  const secrets: string[] = [];
  try {
    return await work(secrets);
  } catch (error) {
    return errorResponse(request, deps.allowedOrigins, error, { log: deps.log, secrets, language: languageOfRequest(request) });
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** POST /api/toc: the course's table of contents, in Brightspace's own shape. */
export function handleToc(request: ApiRequest, deps: ApiDeps): Promise<ApiResponse> {
  return withErrors(request, deps, async (secrets) => {
    const caller = await authenticate(request, deps);
    const input = parseTocRequest(readJsonBody(request), deps);
    secrets.push(input.password);
    // Each load holds a sign-in and up to 20 MB of answer: a user gets a few at once, not a flood.
    const release = await deps.tocLoads?.acquire(caller.sub);
    if (release === undefined && deps.tocLoads !== undefined) {
      throw new AppError('too_many_requests', msg('error.toc.too-many', { count: deps.tocLoads.max }));
    }
    const timeout = AbortSignal.timeout(deps.tocTimeoutMs ?? 60_000);
    const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout]);
    let toc: string;
    try {
      toc = await deps.loadTableOfContents({ ...input, allowPrivateTargets: deps.allowPrivateTargets, signal });
    } catch (error) {
      if (isAbort(error) && timeout.aborted) {
        throw new AppError('site_unreachable', msg('error.site.toc-timeout'), { cause: error });
      }
      throw error;
    } finally {
      await release?.();
    }
    return jsonTextResponse(request, deps.allowedOrigins, 200, toc);
  });
}

/** POST /api/run-tests: records the job, hands it to the runner, answers 202 at once. */
export function handleRunTests(request: ApiRequest, deps: ApiDeps): Promise<ApiResponse> {
  return withErrors(request, deps, async (secrets) => {
    const caller = await authenticate(request, deps);
    const input = parseRunTestsRequest(readJsonBody(request), deps);
    secrets.push(input.password);
    // The run would fail on its first request anyway; refusing now gives the user the reason at once.
    await checkSiteDestination(input.siteUrl, deps);

    if (deps.runner.hasCapacity?.() === false) throw overloaded();

    const now = (deps.now ?? (() => new Date()))();
    const at = now.toISOString();
    const job: JobRecord = {
      id: randomUUID(),
      owner: caller.sub,
      status: 'PROVISIONING',
      client: input.client,
      siteUrl: input.siteUrl,
      orgUnitId: input.orgUnitId,
      modules: input.modules,
      ...(input.excludeModules === undefined ? {} : { excludeModules: input.excludeModules }),
      ...(input.moduleTitles === undefined ? {} : { moduleTitles: input.moduleTitles }),
      ...(input.scopes === undefined ? {} : { scopes: input.scopes }),
      ...(input.full === undefined ? {} : { full: true }),
      userName: input.username,
      ...(input.language === undefined ? {} : { language: input.language }),
      filename: reportFilename({ client: input.client, orgUnitId: input.orgUnitId, at: now }),
      createdAt: at,
      updatedAt: at,
    };
    // The store counts and records in one atomic step: requests racing each other cannot pass a cap.
    const admitted = await deps.jobs.createWithinLimits(job, { perOwner: deps.maxActiveRunsPerUser, overall: deps.maxActiveRuns });
    if (!admitted.admitted) {
      const id = admitted.limit === 'perOwner' ? 'error.runs.too-many' : 'error.runs.deployment-full';
      throw new AppError('too_many_runs', msg(id, { count: admitted.cap }));
    }
    try {
      await deps.runner.submit(job, { username: input.username, password: input.password });
    } catch (error) {
      const busy = error instanceof AppError && error.code === 'overloaded';
      await deps.jobs.update(job.id, {
        status: 'FAILED',
        reason: formatMessage(msg(busy ? 'reason.run.busy' : 'reason.run.not-started'), job.language),
      });
      throw busy ? overloaded() : error;
    }

    const count = input.modules.length;
    const started = count === 0 ? msg('api.run-started.course-wide', { client: input.client, orgUnitId: String(input.orgUnitId) }) : msg('api.run-started', { client: input.client, count, orgUnitId: String(input.orgUnitId) });
    const body: RunTestsAnswer = {
      message: formatMessage(started, job.language),
      taskArn: job.id,
      filename: job.filename,
    };
    return jsonResponse(request, deps.allowedOrigins, 202, body);
  });
}

async function checkSiteDestination(siteUrl: string, deps: ApiDeps): Promise<void> {
  const url = new URL(siteUrl);
  try {
    // The local switch holds for a site on this machine or its network only: a public site is held
    // to https and the public guard, as the run itself will be (localSwitchFor).
    const policy = sitePolicy(await localSwitchFor(siteUrl, deps.allowPrivateTargets, deps.resolve));
    assertAllowedUrl(siteUrl, policy);
    await assertAllowedDestination(url, policy, deps.resolve);
  } catch (error) {
    if (error instanceof AppError) throw error;
    // DNS had no answer: the address is mistyped, or the site is gone.
    throw new AppError('site_unreachable', msg('error.site.not-found', { host: url.hostname }), { cause: error });
  }
}

function overloaded(): AppError {
  return new AppError('overloaded', msg('error.runs.busy'));
}

/** GET /api/job-status/{jobArn}: where the caller's job is; the report address once it succeeded. */
export function handleJobStatus(request: ApiRequest, deps: ApiDeps): Promise<ApiResponse> {
  return withErrors(request, deps, async () => {
    const caller = await authenticate(request, deps);
    if (!request.path.startsWith(JOB_STATUS_PREFIX)) throw new AppError('not_found', msg('error.api.no-such-route'));
    const id = parseJobId(request.path.slice(JOB_STATUS_PREFIX.length));
    const job = await deps.jobs.get(id);
    if (job === undefined) throw new AppError('not_found', msg('error.job.not-found'));
    if (job.owner !== caller.sub) throw new AppError('forbidden', msg('error.job.not-yours'));

    return jsonResponse(request, deps.allowedOrigins, 200, await statusAnswerOf(job, deps, caller));
  });
}

/** The status answer of a job its owner may see (job-status, and a cancel's answer). */
async function statusAnswerOf(job: JobRecord, deps: ApiDeps, caller: Caller): Promise<JobStatusAnswer> {
  const body: JobStatusAnswer = { status: job.status, updatedAt: job.updatedAt, client: job.client, orgUnitId: job.orgUnitId };
  if (job.courseName !== undefined) body.courseName = job.courseName;
  if (job.progress !== undefined) body.progress = job.progress;
  if (job.startedAt !== undefined) body.startedAt = job.startedAt;
  if (job.finishedAt !== undefined) body.finishedAt = job.finishedAt;
  if (job.status === 'FAILED') body.reason = job.reason ?? formatMessage(msg('reason.run.failed'), job.language);
  if (job.status === 'SUCCEEDED') {
    // Signed anew on each call: asking again renews a link that has expired.
    body.outputUrl = await reportLinkOf(job, deps, caller);
    if (job.summary !== undefined) body.summary = job.summary;
  }
  return body;
}

/**
 * DELETE /api/jobs/{jobArn}: its owner cancels a run that has not ended. It ends FAILED with
 * "Cancelled" as its reason, its run is stopped and it keeps no report; the answer is its status
 * as job-status gives it. Another user's job is unknown here (404), not forbidden: cancelling is
 * no way to learn which jobs exist. A job that has already ended is a conflict (409).
 */
export function handleCancelJob(request: ApiRequest, deps: ApiDeps): Promise<ApiResponse> {
  return withErrors(request, deps, async () => {
    const caller = await authenticate(request, deps);
    if (!request.path.startsWith(JOB_PREFIX)) throw new AppError('not_found', msg('error.api.no-such-route'));
    const id = parseJobId(request.path.slice(JOB_PREFIX.length));
    const job = await deps.jobs.get(id);
    if (job === undefined || job.owner !== caller.sub) throw new AppError('not_found', msg('error.job.not-found'));
    const ended = await cancelJob(job, { jobs: deps.jobs, runner: deps.runner, ...(deps.now ? { now: deps.now } : {}), ...(deps.log ? { log: deps.log } : {}) });
    if (ended === undefined) throw new AppError('conflict', msg('error.job.already-ended'));
    return jsonResponse(request, deps.allowedOrigins, 200, await statusAnswerOf(ended, deps, caller));
  });
}

/** Where a succeeded job's report files are, for its owner (`outputUrl` of job-status and the job list): a signed link. */
export function reportLinkOf(job: JobRecord, deps: ApiDeps, caller: Caller): Promise<string> {
  return signedReportOutputUrl({
    reportsUrl: deps.outputUrl,
    filename: job.filename,
    owner: job.owner,
    now: deps.now?.() ?? new Date(),
    signingKey: deps.reportSigningKey,
    lifetimeMs: deps.reportLinkLifetimeMs,
    ...(caller.expiresAt === undefined ? {} : { tokenExpiresAt: caller.expiresAt }),
  });
}
