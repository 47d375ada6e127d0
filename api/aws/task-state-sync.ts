// Keeps a job's status current with its Fargate task: from ECS's "Task State Change" events as they
// come, and, when a job has gone quiet (an event lost, or a task ECS has since forgotten), from
// DescribeTasks when someone asks for the job. The store keeps statuses moving forward and a
// finished job final, so events arriving late or twice do no harm.
import type { ECSClient } from '@aws-sdk/client-ecs';
import { DescribeTasksCommand } from '@aws-sdk/client-ecs';
import { isTerminal } from '../jobs/job-status.ts';
import { formatMessage } from '../i18n/messages.ts';
import type { JobPatch, JobRecord, JobStore } from '../jobs/types.ts';
import type { EcsTaskView, TaskOutcome } from './ecs-task-status.ts';
import { outcomeOfFailure, outcomeOfTask } from './ecs-task-status.ts';
import { ENV } from './settings.ts';

/** The part of an "ECS Task State Change" event's `detail` this code reads. */
export interface EcsTaskStateDetail extends EcsTaskView {
  taskArn?: string;
  clusterArn?: string;
  startedBy?: string;
  startedAt?: string;
  stoppedAt?: string;
  overrides?: { containerOverrides?: { name?: string; environment?: { name?: string; value?: string }[] }[] };
}

/** The job a task runs: the job id in our container's overrides, else the task's `startedBy`. */
export function jobIdOfTask(detail: EcsTaskStateDetail, containerName: string): string | undefined {
  const container = detail.overrides?.containerOverrides?.find((candidate) => candidate.name === containerName);
  const fromOverrides = container?.environment?.find((variable) => variable.name === ENV.jobId)?.value;
  return fromOverrides ?? detail.startedBy;
}

async function patchOf(store: JobStore, jobId: string, outcome: TaskOutcome, detail: EcsTaskStateDetail): Promise<JobPatch> {
  const patch: JobPatch = { status: outcome.status };
  // Written in the run's language, as every reason is.
  if (outcome.reason !== undefined) patch.reason = formatMessage(outcome.reason, (await store.get(jobId))?.language);
  if (detail.taskArn !== undefined) patch.runnerRef = detail.taskArn;
  if (outcome.status === 'RUNNING' && detail.startedAt !== undefined) patch.startedAt = detail.startedAt;
  if (isTerminal(outcome.status) && detail.stoppedAt !== undefined) patch.finishedAt = detail.stoppedAt;
  return patch;
}

export type SyncResult = { job: JobRecord } | { ignored: string };

/** Applies one "ECS Task State Change" event to the job its task runs. */
export async function applyTaskStateChange(store: JobStore, containerName: string, detail: EcsTaskStateDetail): Promise<SyncResult> {
  const jobId = jobIdOfTask(detail, containerName);
  if (jobId === undefined) return { ignored: 'the task names no job' };
  const outcome = outcomeOfTask(detail, containerName);
  if (outcome === undefined) return { ignored: `unknown task status ${String(detail.lastStatus)}` };
  const job = await store.update(jobId, await patchOf(store, jobId, outcome, detail));
  return job === undefined ? { ignored: `no job ${jobId}` } : { job };
}

export interface RefreshOptions {
  ecs: ECSClient;
  cluster: string;
  containerName: string;
  /** How long a job may go without an update before ECS is asked directly. */
  quietAfterMs: number;
  now?: () => Date;
}

/** The job, brought up to date from ECS if it has gone quiet while still running. */
export async function refreshQuietJob(store: JobStore, job: JobRecord, options: RefreshOptions): Promise<JobRecord> {
  const now = options.now ?? (() => new Date());
  if (isTerminal(job.status) || job.runnerRef === undefined) return job;
  if (now().getTime() - Date.parse(job.updatedAt) < options.quietAfterMs) return job;

  const answer = await options.ecs.send(new DescribeTasksCommand({ cluster: options.cluster, tasks: [job.runnerRef] }));
  const task = answer.tasks?.find((candidate) => candidate.taskArn === job.runnerRef);
  // ECS keeps a stopped task for about an hour; after that DescribeTasks says MISSING.
  const failure = answer.failures?.find((candidate) => candidate.arn === undefined || candidate.arn === job.runnerRef);
  let outcome: TaskOutcome | undefined;
  if (task !== undefined) outcome = outcomeOfTask(task, options.containerName);
  else if (failure !== undefined) outcome = outcomeOfFailure(failure);
  if (outcome === undefined) return job;
  const detail: EcsTaskStateDetail = task === undefined ? {} : { startedAt: task.startedAt?.toISOString(), stoppedAt: task.stoppedAt?.toISOString() };
  return (await store.update(job.id, await patchOf(store, job.id, outcome, detail))) ?? job;
}

/** A job store whose reads bring a quiet running job up to date from ECS first (job-status). */
export function withEcsRefresh(store: JobStore, options: RefreshOptions): JobStore {
  return {
    create: (job) => store.create(job),
    createWithinLimits: (job, limits) => store.createWithinLimits(job, limits),
    update: (id, patch) => store.update(id, patch),
    countActive: (owner) => store.countActive(owner),
    listByStatus: (statuses) => store.listByStatus(statuses),
    async get(id) {
      const job = await store.get(id);
      if (job === undefined) return undefined;
      try {
        return await refreshQuietJob(store, job, options);
      } catch (error) {
        // ECS being unreachable must not hide the job: answer with what the store knows.
        console.error(`job ${id}: refreshing from ECS failed`, error instanceof Error ? error.name : 'unknown error');
        return job;
      }
    },
  };
}
