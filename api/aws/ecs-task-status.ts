// From what ECS says about a run's Fargate task to the job's status. ECS's own lifecycle is finer
// than the job's, and a stopped task says how it ended only through the exit code of our container
// (sidecars and ECS's own agents end with other codes) or, when it never started, its stop code.
import type { JobStatus } from '../jobs/job-status.ts';
import { msg, type Message } from '../i18n/messages.ts';

/** What both DescribeTasks and an "ECS Task State Change" event say about a task. */
export interface EcsTaskView {
  lastStatus?: string;
  stopCode?: string;
  stoppedReason?: string;
  containers?: { name?: string; exitCode?: number | null; reason?: string }[];
}

/** An entry of `failures[]` in a RunTask or DescribeTasks answer. */
export interface EcsFailureView {
  arn?: string;
  reason?: string;
  detail?: string;
}

export interface TaskOutcome {
  status: JobStatus;
  /** Why a job FAILED, for the person who started it. */
  reason?: Message;
}

/** Exit code of the task's main when the run itself failed; it has recorded the reason already. */
export const EXIT_RUN_FAILED = 1;

export const MISSING_TASK_REASON = msg('reason.aws.missing-task');

function shorten(text: string | undefined): string {
  const trimmed = (text ?? '').trim().replace(/\s+/g, ' ');
  return trimmed.length > 200 ? `${trimmed.slice(0, 199)}…` : trimmed;
}

function stoppedOutcome(task: EcsTaskView, containerName: string): TaskOutcome {
  const container = task.containers?.find((candidate) => candidate.name === containerName);
  const exitCode = container?.exitCode;
  if (exitCode === 0) return { status: 'SUCCEEDED' };
  if (typeof exitCode === 'number') {
    if (exitCode === EXIT_RUN_FAILED) return { status: 'FAILED', reason: msg('reason.aws.run-failed') };
    if (exitCode === 137 || /OutOfMemory/i.test(container?.reason ?? '')) {
      return { status: 'FAILED', reason: msg('reason.aws.out-of-memory', { exitCode }) };
    }
    return { status: 'FAILED', reason: msg('reason.aws.exit-code', { exitCode }) };
  }
  // No exit code: our container never ran, or ECS stopped the task around it.
  const detail = shorten(task.stoppedReason ?? container?.reason);
  switch (task.stopCode) {
    case 'TaskFailedToStart':
      return { status: 'FAILED', reason: detail ? msg('reason.aws.failed-to-start-detail', { detail }) : msg('reason.aws.failed-to-start') };
    case 'SpotInterruption':
    case 'TerminationNotice':
      return { status: 'FAILED', reason: msg('reason.aws.reclaimed') };
    case 'UserInitiated':
      return { status: 'FAILED', reason: msg('reason.aws.stopped-by-admin') };
    default:
      return { status: 'FAILED', reason: detail ? msg('reason.aws.stopped-early-detail', { detail }) : msg('reason.aws.stopped-early') };
  }
}

/**
 * The job status a task's state stands for, or undefined for a state ECS may add later: the job
 * then keeps the status it has.
 */
export function outcomeOfTask(task: EcsTaskView, containerName: string): TaskOutcome | undefined {
  switch (task.lastStatus) {
    case 'PROVISIONING':
      return { status: 'PROVISIONING' };
    case 'PENDING':
    case 'ACTIVATING':
      return { status: 'PENDING' };
    case 'RUNNING':
      return { status: 'RUNNING' };
    case 'DEACTIVATING':
    case 'STOPPING':
    case 'DEPROVISIONING':
      return { status: 'DEPROVISIONING' };
    case 'STOPPED':
    case 'DELETED':
      return stoppedOutcome(task, containerName);
    default:
      return undefined;
  }
}

/** A failure ECS reports instead of a task: RunTask refusing to start one, or a forgotten task. */
export function outcomeOfFailure(failure: EcsFailureView): TaskOutcome {
  if (failure.reason === 'MISSING') return { status: 'FAILED', reason: MISSING_TASK_REASON };
  const detail = shorten([failure.reason, failure.detail].filter(Boolean).join(': '));
  return { status: 'FAILED', reason: detail ? msg('reason.aws.not-started-detail', { detail }) : msg('reason.aws.not-started') };
}
