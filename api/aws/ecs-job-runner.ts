// Starts each run as its own ECS Fargate task, so no single machine limits how many courses are
// tested at once, and stops it when its owner cancels it. The task gets the job id, the
// credentials and an AWS session of the job role encrypted for that job (job-session.ts), and the
// name of the report to compare with; everything else it reads from the job store, as the session lets it.
import type { ECSClient, RunTaskCommandOutput } from '@aws-sdk/client-ecs';
import { RunTaskCommand, StopTaskCommand } from '@aws-sdk/client-ecs';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { STSClient } from '@aws-sdk/client-sts';
import { AppError } from '../errors.ts';
import { formatMessage, msg, type Message } from '../i18n/messages.ts';
import type { JobHistory, JobRecord, JobRunner, JobStore } from '../jobs/types.ts';
import { encryptCredentials, encryptJobSession } from './credentials-cipher.ts';
import { assumeJobRole } from './job-session.ts';
import { outcomeOfFailure, outcomeOfTask } from './ecs-task-status.ts';
import { ENV } from './settings.ts';

export interface EcsJobRunnerOptions {
  ecs: ECSClient;
  kms: KMSClient;
  store: JobStore;
  cluster: string;
  taskDefinition: string;
  /** The task's essential container, the one that runs the test. */
  containerName: string;
  subnets: readonly string[];
  securityGroups: readonly string[];
  /** The KMS key the credentials are encrypted with. */
  credentialsKeyId: string;
  sts: STSClient;
  /** The role each task acts as, through a session tagged with its job. */
  jobRoleArn: string;
  /** Where the owner's previous run of the course is found: the report the task may read to compare with. */
  history: Pick<JobHistory, 'previousSucceeded'>;
}

// RunTask's `startedBy`: up to 128 letters, digits, hyphens, slashes and underscores.
const STARTED_BY = /^[A-Za-z0-9/_-]{1,128}$/;

/** Errors AWS gives when it is busy rather than broken: worth a "try again shortly". */
const BUSY_ERRORS = new Set(['ThrottlingException', 'ServerException', 'LimitExceededException', 'KMSInternalException', 'Throttling']);

/** What stopping a run's task needs: the cluster it runs in. */
export interface EcsTaskStopperOptions {
  ecs: ECSClient;
  cluster: string;
}

/** Said in ECS's record of the stopped task (at most 255 characters). */
export const CANCELLED_TASK_REASON = 'Cancelled by its owner in CTPO';

/**
 * Stops the Fargate task of a cancelled job (ECS StopTask: SIGTERM, then SIGKILL after the stop
 * timeout). A job whose task is not yet known has none to stop: its task, once started, finds the
 * job ended and exits at once (fargate-task.ts).
 */
export async function stopJobTask(options: EcsTaskStopperOptions, job: JobRecord): Promise<void> {
  if (job.runnerRef === undefined || !job.runnerRef.startsWith('arn:')) return;
  await options.ecs.send(new StopTaskCommand({ cluster: options.cluster, task: job.runnerRef, reason: CANCELLED_TASK_REASON }));
}

export function createEcsJobRunner(options: EcsJobRunnerOptions): JobRunner {
  const { store } = options;

  const giveUp = async (job: JobRecord, reason: Message, code: 'overloaded' | 'internal'): Promise<never> => {
    await store.update(job.id, { status: 'FAILED', reason: formatMessage(reason, job.language) });
    throw new AppError(code, reason);
  };

  return {
    async submit(job, credentials) {
      // Looked up here, not by the task: its session may then read that one report and no other.
      const baseline = await options.history.previousSucceeded(job).then(
        (previous) => previous?.filename,
        (error: unknown) => {
          console.error(`job ${job.id}: the previous run could not be looked up; the run goes without a comparison`, errorName(error));
          return undefined;
        },
      );
      let ciphertext: string;
      let sessionCiphertext: string;
      try {
        const session = await assumeJobRole(options.sts, options.jobRoleArn, job, baseline);
        ciphertext = await encryptCredentials(options.kms, options.credentialsKeyId, job.id, credentials);
        sessionCiphertext = await encryptJobSession(options.kms, options.credentialsKeyId, job.id, session);
      } catch (error) {
        console.error(`job ${job.id}: preparing the task's credentials failed`, errorName(error));
        return giveUp(job, msg('reason.aws.not-prepared'), busyOrInternal(error));
      }

      let answer: RunTaskCommandOutput;
      try {
        answer = await options.ecs.send(
          new RunTaskCommand({
            cluster: options.cluster,
            taskDefinition: options.taskDefinition,
            launchType: 'FARGATE',
            count: 1,
            ...(STARTED_BY.test(job.id) ? { startedBy: job.id } : {}),
            networkConfiguration: {
              awsvpcConfiguration: {
                subnets: [...options.subnets],
                securityGroups: [...options.securityGroups],
                // Public subnets without a NAT gateway: the task needs its own address to reach
                // Brightspace and the image registry. Its security group admits nothing inbound.
                assignPublicIp: 'ENABLED',
              },
            },
            overrides: {
              containerOverrides: [
                {
                  name: options.containerName,
                  environment: [
                    { name: ENV.jobId, value: job.id },
                    { name: ENV.encryptedCredentials, value: ciphertext },
                    { name: ENV.encryptedSession, value: sessionCiphertext },
                    ...(baseline === undefined ? [] : [{ name: ENV.baselineReport, value: baseline }]),
                  ],
                },
              ],
            },
          }),
        );
      } catch (error) {
        console.error(`job ${job.id}: RunTask failed`, errorName(error));
        return giveUp(job, msg('reason.aws.not-started'), busyOrInternal(error));
      }

      // RunTask answers 200 with failures[] when it could not place the task.
      const failure = answer.failures?.[0];
      const task = answer.tasks?.[0];
      if (failure !== undefined || task?.taskArn === undefined) {
        const outcome = outcomeOfFailure(failure ?? { reason: 'no task started' });
        console.error(`job ${job.id}: RunTask refused`, failure?.reason, failure?.detail);
        return giveUp(job, outcome.reason ?? msg('reason.aws.not-started'), 'overloaded');
      }
      const outcome = outcomeOfTask(task, options.containerName);
      const recorded = await store.update(job.id, { runnerRef: task.taskArn, ...(outcome === undefined ? {} : { status: outcome.status }) });
      // Cancelled while RunTask was answering: the cancel found no task to stop, so it is stopped here.
      if (recorded?.status === 'FAILED' && recorded.runnerRef === undefined) await stopJobTask(options, { ...recorded, runnerRef: task.taskArn });
    },

    cancel(job) {
      return stopJobTask(options, job);
    },
  };
}

function errorName(error: unknown): string {
  // The name and message only: an SDK error's other fields can carry the request.
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}

function busyOrInternal(error: unknown): 'overloaded' | 'internal' {
  return error instanceof Error && BUSY_ERRORS.has(error.name) ? 'overloaded' : 'internal';
}
