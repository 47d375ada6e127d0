// One test run from start to end, the same wherever it runs (a local worker thread, the Fargate
// task): RUNNING with progress, the engine, the report and its twins stored, DEPROVISIONING, then
// SUCCEEDED with what was found (the monitor's summary); or FAILED with a reason the user can act
// on, in the run's language. The password lives only in this call's memory. A run whose record
// was ended meanwhile (cancelled by its owner) stops at its next write and keeps no report.
import { AppError, isAppError } from '../errors.ts';
import { isTerminal } from './job-status.ts';
import { CANCELLED_REASON } from './cancel-job.ts';
import { formatMessage, msg, type Message } from '../i18n/messages.ts';
import { runCourseTest } from '../engine/run-course-test.ts';
import type { RunProgress } from '../engine/progress.ts';
import type { CourseTestOptions } from '../engine/types.ts';
import type { VerdictCache } from '../engine/verdict-cache.ts';
import { failureDetail } from '../log.ts';
import type { Log } from '../log.ts';
import { COURSE_SCOPES, type CourseScope } from '../brightspace/course-scopes.ts';
import { renderCsvReport } from '../report/render-csv.ts';
import { renderHtmlReport } from '../report/render-html.ts';
import { renderJsonReport } from '../report/render-json.ts';
import { compareWithHistory } from '../report/compare.ts';
import type { Report } from '../report/model.ts';
import { summaryOf } from '../report/summary.ts';
import { DEFAULT_PROTOCOL } from '../protocol/default-protocol.ts';
import type { Protocol } from '../protocol/protocol-schema.ts';
import { withProtocol } from '../protocol/score-protocol.ts';
import type { BaselineSource, BrightspaceCredentials, JobRecord, JobStore, ReportStore, RunBaseline } from './types.ts';

export const UNEXPECTED_FAILURE_REASON = msg('reason.run.unexpected');

/** Why a run that went over its time limit was stopped. */
export function runTimeoutReason(ms: number): Message {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 1 ? msg('reason.run.timeout-minutes', { minutes }) : msg('reason.run.timeout-seconds', { seconds: Math.max(1, Math.round(ms / 1000)) });
}

export interface ExecuteJobInput {
  job: JobRecord;
  credentials: BrightspaceCredentials;
  /** Only updates are needed, so a worker can hand them to whoever holds the store. */
  jobs: Pick<JobStore, 'update'>;
  reports: ReportStore;
  /** What the report is compared with (the previous run of the course, dismissals); absent: no comparison. */
  baselines?: BaselineSource;
  /**
   * The protocol to score the run by, over the client's own (the command line's --protocol); absent:
   * the client's from the baseline, else CTPO's default.
   */
  protocol?: Protocol;
  allowPrivateTargets: boolean;
  /** Options of this one run (the command line's --enhanced-contrast, the server's link age); absent: the environment's and the defaults. */
  options?: Pick<CourseTestOptions, 'enhancedContrast' | 'linkMaxAgeMs'>;
  /** Where verdicts are kept between runs of a course (verdict-cache.ts); absent: every item is judged. */
  cache?: VerdictCache;
  /** Ignore the cache for this run (the command line's --full); what it checks is still kept. */
  full?: boolean;
  /** Aborting stops the run; an AppError given as the abort reason becomes the job's reason. */
  signal?: AbortSignal;
  /** Progress is written at most this often (the last value always lands). Default 1000 ms. */
  progressIntervalMs?: number;
  now?: () => Date;
  log?: Log;
}

/** Runs the job to a terminal state and returns the final record; never throws for a failed run. */
export async function executeJob(input: ExecuteJobInput): Promise<JobRecord | undefined> {
  const { job, credentials, jobs } = input;
  const now = input.now ?? (() => new Date());
  const interval = input.progressIntervalMs ?? 1000;

  // The run's one signal: aborted by the runner's signal, or when a write finds the record already
  // ended (nobody is waiting for this run any more). A plain controller rather than AbortSignal.any,
  // so the engine's many per-request signals hang off a signal with no sources of its own.
  const endedElsewhere = new AbortController();
  const signal = endedElsewhere.signal;
  if (input.signal?.aborted) endedElsewhere.abort(input.signal.reason);
  input.signal?.addEventListener('abort', () => endedElsewhere.abort(input.signal?.reason), { once: true });
  const stopIfEnded = (record: JobRecord | undefined): boolean => {
    if (record === undefined || !isTerminal(record.status)) return false;
    if (!signal.aborted) endedElsewhere.abort(new AppError('conflict', CANCELLED_REASON));
    return true;
  };

  let lastWrite = 0;
  let pending: RunProgress | undefined;
  let timer: NodeJS.Timeout | undefined;
  let writes: Promise<unknown> = Promise.resolve();
  const writeProgress = (progress: RunProgress): void => {
    lastWrite = Date.now();
    writes = writes
      .then(() => jobs.update(job.id, { progress: { done: progress.done, total: progress.total, phase: progress.phase } }))
      .then(stopIfEnded)
      .catch(() => undefined);
  };
  const onProgress = (progress: RunProgress): void => {
    if (Date.now() - lastWrite >= interval) {
      // A newer progress supersedes one still waiting: left queued, it would be written after
      // this one (a slow step between two calls, as on a busy machine, made the record go back).
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
      writeProgress(progress);
      return;
    }
    pending = progress;
    timer ??= setTimeout(() => {
      timer = undefined;
      if (pending !== undefined) writeProgress(pending);
      pending = undefined;
    }, interval);
  };
  const stopProgress = async (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending !== undefined) writeProgress(pending);
    pending = undefined;
    await writes;
  };

  // Once the report's files may be there: a run that ends FAILED all the same (cancelled while its
  // report was being written, or its end could not be recorded) keeps none of them.
  let stored = false;
  const withoutReportIfFailed = async (record: JobRecord | undefined): Promise<JobRecord | undefined> => {
    if (stored && record?.status === 'FAILED') {
      await input.reports.remove(job.filename).catch((error: unknown) => input.log?.(`job ${job.id}: its report could not be removed: ${error instanceof Error ? error.message : String(error)}`));
    }
    return record;
  };

  try {
    signal.throwIfAborted();
    const running = await jobs.update(job.id, { status: 'RUNNING', startedAt: now().toISOString() });
    // Cancelled while it waited for a worker: there is nothing to run.
    if (stopIfEnded(running)) return running;
    const found = await runCourseTest(
      {
        siteUrl: job.siteUrl,
        username: credentials.username,
        password: credentials.password,
        orgUnitId: job.orgUnitId,
        modules: job.modules,
        ...(job.excludeModules === undefined ? {} : { excludeModules: job.excludeModules }),
        client: job.client,
        ...(job.scopes === undefined ? {} : { scopes: job.scopes.filter((scope): scope is CourseScope => (COURSE_SCOPES as readonly string[]).includes(scope)) }),
        ...(job.language === undefined ? {} : { language: job.language }),
        allowPrivateTargets: input.allowPrivateTargets,
        signal,
        // Recorded at once, so that the monitor names the course while the run goes on.
        onCourseName: (courseName) => {
          writes = writes.then(() => jobs.update(job.id, { courseName })).then(stopIfEnded).catch(() => undefined);
        },
        ...(input.options === undefined ? {} : { options: input.options }),
        ...(input.cache === undefined ? {} : { cache: input.cache }),
        // Asked for by the command line (--full) or by the run's request (run-tests FULL).
        ...(input.full === true || job.full === true ? { full: true } : {}),
      },
      onProgress,
    );
    await stopProgress();
    const baseline = await baselineOf(job, input);
    const report = withProtocol(compared(found, baseline, job, input), input.protocol ?? baseline?.protocol?.protocol ?? DEFAULT_PROTOCOL, baseline?.protocol?.answers ?? []);
    signal.throwIfAborted();
    stored = true;
    await input.reports.put(job.filename, { html: renderHtmlReport(report), json: renderJsonReport(report), csv: renderCsvReport(report) });
    const cleaningUp = await jobs.update(job.id, { status: 'DEPROVISIONING' });
    const outcome = { summary: summaryOf(report), ...(report.courseName === undefined ? {} : { courseName: report.courseName }) };
    const final = stopIfEnded(cleaningUp) ? cleaningUp : await jobs.update(job.id, { status: 'SUCCEEDED', ...outcome });
    return await withoutReportIfFailed(final);
  } catch (error) {
    await stopProgress();
    const abortReason: unknown = signal.aborted ? signal.reason : undefined;
    const known = isAppError(abortReason) ? abortReason : isAppError(error) ? error : undefined;
    if (known === undefined || known.code === 'internal') {
      input.log?.(`job ${job.id} failed: ${failureDetail(error, [credentials.password])}`);
    }
    // An AppError's message is written for the user from the catalogue, whose values never include
    // the password, so it is shown as it is; anything else is a bug whose details go to the log only.
    const reason = formatMessage(known === undefined ? UNEXPECTED_FAILURE_REASON : known.text, job.language);
    return withoutReportIfFailed(await jobs.update(job.id, { status: 'FAILED', reason }));
  }
}

/**
 * What the report is compared with and scored by. Neither is what the user asked for, so a store
 * that cannot answer costs them, never the run: the report then has no comparison, and is scored by
 * the default protocol.
 */
async function baselineOf(job: JobRecord, input: ExecuteJobInput): Promise<RunBaseline | undefined> {
  if (input.baselines === undefined) return undefined;
  try {
    return await input.baselines.baselineFor(job);
  } catch (error) {
    input.log?.(`job ${job.id}: the comparison with the previous run and the client's protocol were left out: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function compared(report: Report, baseline: RunBaseline | undefined, job: JobRecord, input: ExecuteJobInput): Report {
  if (baseline === undefined) return report;
  try {
    return compareWithHistory(report, baseline);
  } catch (error) {
    input.log?.(`job ${job.id}: the comparison with the previous run was left out: ${error instanceof Error ? error.message : String(error)}`);
    return report;
  }
}
