import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../../api/i18n/messages.ts';
import type { TaskOutcome } from '../../../api/aws/ecs-task-status.ts';

const reasonOf = (outcome: TaskOutcome | undefined) => (outcome?.reason === undefined ? undefined : formatMessage(outcome.reason));
import { MISSING_TASK_REASON, outcomeOfFailure, outcomeOfTask } from '../../../api/aws/ecs-task-status.ts';
import type { EcsTaskView } from '../../../api/aws/ecs-task-status.ts';

const stopped = (containers: EcsTaskView['containers'], extra: Partial<EcsTaskView> = {}): EcsTaskView => ({
  lastStatus: 'STOPPED',
  stopCode: 'EssentialContainerExited',
  containers,
  ...extra,
});

describe('job status from an ECS task', () => {
  it.each([
    ['PROVISIONING', 'PROVISIONING'],
    ['PENDING', 'PENDING'],
    ['ACTIVATING', 'PENDING'],
    ['RUNNING', 'RUNNING'],
    ['DEACTIVATING', 'DEPROVISIONING'],
    ['STOPPING', 'DEPROVISIONING'],
    ['DEPROVISIONING', 'DEPROVISIONING'],
  ])('maps lastStatus %s to %s', (lastStatus, status) => {
    expect(outcomeOfTask({ lastStatus }, 'runner')).toEqual({ status });
  });

  it('keeps the job as it is for a status ECS might add later, or none', () => {
    expect(outcomeOfTask({ lastStatus: 'HIBERNATING' }, 'runner')).toBeUndefined();
    expect(outcomeOfTask({}, 'runner')).toBeUndefined();
  });

  it('calls a stopped task SUCCEEDED only when our container exited 0', () => {
    expect(outcomeOfTask(stopped([{ name: 'runner', exitCode: 0 }]), 'runner')).toEqual({ status: 'SUCCEEDED' });
    // A sidecar that exited 0 says nothing about the run.
    const sidecarOnly = outcomeOfTask(stopped([{ name: 'log-router', exitCode: 0 }, { name: 'runner', exitCode: 2 }]), 'runner');
    expect(sidecarOnly?.status).toBe('FAILED');
    // ECS SIGKILLs sidecars (137) when the essential container ends: ignored as well.
    expect(outcomeOfTask(stopped([{ name: 'log-router', exitCode: 137 }, { name: 'runner', exitCode: 0 }]), 'runner')).toEqual({
      status: 'SUCCEEDED',
    });
    expect(outcomeOfTask({ ...stopped([{ name: 'runner', exitCode: 0 }]), lastStatus: 'DELETED' }, 'runner')).toEqual({ status: 'SUCCEEDED' });
  });

  it('says why a stopped task FAILED, by exit code', () => {
    expect(outcomeOfTask(stopped([{ name: 'runner', exitCode: 1 }]), 'runner')?.status).toBe('FAILED');
    expect(reasonOf(outcomeOfTask(stopped([{ name: 'runner', exitCode: 1 }]), 'runner'))).toMatch(/^The test run failed\./);
    expect(reasonOf(outcomeOfTask(stopped([{ name: 'runner', exitCode: 137 }]), 'runner'))).toMatch(/ran out of memory.*exit code 137/);
    expect(reasonOf(outcomeOfTask(stopped([{ name: 'runner', exitCode: 139, reason: 'OutOfMemoryError: Container killed due to memory usage' }]), 'runner'))).toMatch(
      /ran out of memory/,
    );
    expect(reasonOf(outcomeOfTask(stopped([{ name: 'runner', exitCode: 3 }]), 'runner'))).toMatch(/stopped unexpectedly \(exit code 3\)/);
  });

  it('says why a task that never ran FAILED, by stop code', () => {
    const pullFailed = outcomeOfTask(
      stopped([{ name: 'runner', exitCode: null }], {
        stopCode: 'TaskFailedToStart',
        stoppedReason: 'CannotPullContainerError: pull image manifest has been retried 5 time(s)',
      }),
      'runner',
    );
    expect(pullFailed?.status).toBe('FAILED');
    expect(reasonOf(pullFailed)).toMatch(/could not start on AWS \(CannotPullContainerError: pull image/);
    expect(reasonOf(outcomeOfTask(stopped([{ name: 'runner' }], { stopCode: 'SpotInterruption' }), 'runner'))).toMatch(/reclaimed/);
    expect(reasonOf(outcomeOfTask(stopped([{ name: 'runner' }], { stopCode: 'TerminationNotice' }), 'runner'))).toMatch(/reclaimed/);
    expect(reasonOf(outcomeOfTask(stopped([{ name: 'runner' }], { stopCode: 'UserInitiated', stoppedReason: 'Task stopped by user' }), 'runner'))).toMatch(
      /stopped by an administrator/,
    );
    const noContainer = outcomeOfTask(stopped(undefined, { stopCode: 'ServiceSchedulerInitiated', stoppedReason: 'x'.repeat(500) }), 'runner');
    expect(noContainer?.status).toBe('FAILED');
    expect(reasonOf(noContainer)).toContain('x'.repeat(199) + '…)');
    expect(reasonOf(noContainer)).not.toContain('x'.repeat(200));
  });
});

describe('job status from an ECS failure', () => {
  it('calls a task ECS has forgotten FAILED, saying so', () => {
    expect(outcomeOfFailure({ arn: 'arn:aws:ecs:ca-central-1:1:task/c/abc', reason: 'MISSING' })).toEqual({ status: 'FAILED', reason: MISSING_TASK_REASON });
  });

  it('calls a RunTask placement failure FAILED with its reason', () => {
    const outcome = outcomeOfFailure({ reason: 'RESOURCE:FARGATE', detail: 'Capacity is unavailable at this time.' });
    expect(outcome.status).toBe('FAILED');
    expect(reasonOf(outcome)).toBe('AWS could not start the test run (RESOURCE:FARGATE: Capacity is unavailable at this time.). Try again in a few minutes.');
  });
});
