// What one Fargate task does: find its job, decrypt the credentials made for that job, run the
// shared run logic (api/jobs/execute-job.ts), and end with an exit code ECS reports back (0 when the
// job SUCCEEDED). The password exists only in this process's memory.
import type { KMSClient } from '@aws-sdk/client-kms';
import { AppError } from '../errors.ts';
import { formatMessage, msg } from '../i18n/messages.ts';
import { isTerminal } from '../jobs/job-status.ts';
import { executeJob, runTimeoutReason } from '../jobs/execute-job.ts';
import type { BaselineSource, BrightspaceCredentials, JobStore, ReportStore } from '../jobs/types.ts';
import { emptyCourseVerdicts, type VerdictCache } from '../engine/verdict-cache.ts';
import { decryptCredentials, decryptJobSession } from './credentials-cipher.ts';
import type { JobSession } from './job-session.ts';
import { EXIT_RUN_FAILED } from './ecs-task-status.ts';
import { parseMaxAge } from '../engine/run-verdicts.ts';
import { ENV, requireEnv } from './settings.ts';
import type { Environment } from './settings.ts';

/** As on the local stack: a run that takes longer is stopped. */
export const RUN_TIMEOUT_MS = 30 * 60_000;

/** Time kept at the end of a job's session to record how the run ended and clear up after it. */
export const SESSION_END_MARGIN_MS = 2 * 60_000;

/**
 * The job's AWS session, decrypted: everything the task reads and writes goes through it. Without it
 * the task cannot even record a failure; ECS's record of the stopped task then ends the job.
 */
export function openJobSession(env: Environment, kms: KMSClient): Promise<JobSession> {
  return decryptJobSession(kms, requireEnv(env, ENV.credentialsKey), requireEnv(env, ENV.jobId), requireEnv(env, ENV.encryptedSession));
}

/**
 * How long the run may take: RUN_TIMEOUT_MS, or less when the task started late (a slow image pull)
 * and its session would otherwise end first and leave the run unable to record its end.
 */
export function runTimeoutWithin(session: Pick<JobSession, 'expiration'>, now: Date, limitMs: number = RUN_TIMEOUT_MS): number {
  const left = Date.parse(session.expiration) - now.getTime() - SESSION_END_MARGIN_MS;
  return Math.max(60_000, Math.min(limitMs, left));
}

export const CREDENTIALS_UNREADABLE_REASON = msg('reason.run.credentials-unreadable');
export const STOPPED_REASON = msg('reason.run.stopped-on-aws');

export interface FargateTaskInput {
  env: Environment;
  jobs: JobStore;
  reports: ReportStore;
  /** What the report is compared with; absent: no comparison. */
  baselines?: BaselineSource;
  /** The deployment's verdict cache; absent: every item is checked and nothing is kept. */
  cache?: VerdictCache;
  kms: KMSClient;
  /** Aborted when ECS stops the task (SIGTERM), with an AppError saying so. */
  signal?: AbortSignal;
  runTimeoutMs?: number;
  /** The address guard's local switch: always off on AWS; tests run against a loopback site. */
  allowPrivateTargets?: boolean;
  log?: (line: string) => void;
}

export async function runFargateTask(input: FargateTaskInput): Promise<number> {
  const log = input.log ?? ((line: string) => console.error(line));
  const jobId = requireEnv(input.env, ENV.jobId);
  // A setting out of its bounds is a deployment fault: said before the job is touched.
  const linkMaxAge = linkMaxAgeMs(input.env);
  const job = await input.jobs.get(jobId);
  if (job === undefined) {
    log(`job ${jobId}: not in the job store (expired or never recorded); nothing to run`);
    return EXIT_RUN_FAILED;
  }
  if (isTerminal(job.status)) {
    // Already over (a second task for the same job, or a job ended before its task started).
    log(`job ${jobId}: already ${job.status}; nothing to run`);
    return job.status === 'SUCCEEDED' ? 0 : EXIT_RUN_FAILED;
  }

  let credentials: BrightspaceCredentials;
  try {
    credentials = await decryptCredentials(input.kms, requireEnv(input.env, ENV.credentialsKey), jobId, requireEnv(input.env, ENV.encryptedCredentials));
  } catch (error) {
    log(`job ${jobId}: decrypting the credentials failed: ${error instanceof Error ? error.name : 'unknown error'}`);
    await input.jobs.update(jobId, { status: 'FAILED', reason: formatMessage(CREDENTIALS_UNREADABLE_REASON, job.language) });
    return EXIT_RUN_FAILED;
  }

  const timeoutMs = input.runTimeoutMs ?? RUN_TIMEOUT_MS;
  const timeout = new AbortController();
  const timer = setTimeout(() => {
    timeout.abort(new AppError('internal', runTimeoutReason(timeoutMs)));
  }, timeoutMs);
  try {
    const finished = await executeJob({
      job,
      credentials,
      jobs: input.jobs,
      reports: input.reports,
      ...(input.baselines === undefined ? {} : { baselines: input.baselines }),
      ...(input.cache === undefined ? {} : { cache: readableOrEmpty(input.cache, (error) => log(`job ${jobId}: the verdict cache could not be read (${failureName(error)}); every item is checked`)) }),
      ...(linkMaxAge === undefined ? {} : { options: { linkMaxAgeMs: linkMaxAge } }),
      allowPrivateTargets: input.allowPrivateTargets ?? false,
      signal: input.signal === undefined ? timeout.signal : AbortSignal.any([input.signal, timeout.signal]),
      log,
    });
    return finished?.status === 'SUCCEEDED' ? 0 : EXIT_RUN_FAILED;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How long a good link's answer is reused, in milliseconds: `CTPO_LINK_MAX_AGE` as the local server
 * reads it (seconds, or `30m`, `12h`, `1d`; 0: every link is asked again); undefined when unset, for
 * the engine's default of one day.
 */
export function linkMaxAgeMs(env: Environment): number | undefined {
  const text = env[ENV.linkMaxAge]?.trim() ?? '';
  if (text === '') return undefined;
  const ms = parseMaxAge(text);
  if (ms === null) throw new Error(`${ENV.linkMaxAge} must be a number of seconds, or one with a unit (30m, 12h, 1d), not "${text}".`);
  return ms;
}

/**
 * The cache as a run uses it on AWS: one that cannot be read (DynamoDB throttled, an object the
 * task may not read) costs the run its reuse, not the run itself.
 */
function readableOrEmpty(cache: VerdictCache, onFailure: (error: unknown) => void): VerdictCache {
  return {
    load: (scope) =>
      cache.load(scope).catch((error: unknown) => {
        onFailure(error);
        return emptyCourseVerdicts();
      }),
    save: (scope, checked) => cache.save(scope, checked),
  };
}

const failureName = (error: unknown): string => (error instanceof Error ? error.name : 'unknown error');

/** An abort signal that fires when ECS asks the task to stop. */
export function stopSignalOnSigterm(): AbortSignal {
  const stop = new AbortController();
  process.once('SIGTERM', () => stop.abort(new AppError('internal', STOPPED_REASON)));
  return stop.signal;
}
