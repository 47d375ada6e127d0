import { DescribeTasksCommand, ECSClient } from '@aws-sdk/client-ecs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { createDynamoJobStore } from '../../../api/aws/dynamo-job-store.ts';
import { MISSING_TASK_REASON } from '../../../api/aws/ecs-task-status.ts';
import { applyTaskStateChange, withEcsRefresh } from '../../../api/aws/task-state-sync.ts';
import type { EcsTaskStateDetail } from '../../../api/aws/task-state-sync.ts';
import type { JobStore } from '../../../api/jobs/types.ts';
import { startDynalite } from '../support/dynalite.ts';
import type { Dynalite } from '../support/dynalite.ts';
import { aJob } from '../support/job-record.ts';

// A real DynamoDB-compatible server on a machine shared with other test runs.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const CLUSTER = 'arn:aws:ecs:ca-central-1:111122223333:cluster/ctpo';
const TASK_ARN = 'arn:aws:ecs:ca-central-1:111122223333:task/ctpo/0123456789abcdef0123456789abcdef';

function event(jobId: string, detail: Partial<EcsTaskStateDetail>): EcsTaskStateDetail {
  return {
    taskArn: TASK_ARN,
    clusterArn: CLUSTER,
    overrides: { containerOverrides: [{ name: 'runner', environment: [{ name: 'CTPO_JOB_ID', value: jobId }] }] },
    ...detail,
  };
}

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(() => dynamo.close());

describe('task state change events', () => {
  let tableName: string;
  let store: JobStore;

  beforeEach(async () => {
    tableName = await dynamo.createJobsTable();
    store = createDynamoJobStore({ client: dynamo.client, tableName, retentionDays: 30 });
  });

  it('walks a job through its task lifecycle to SUCCEEDED', async () => {
    await store.create(aJob('j1'));
    await applyTaskStateChange(store, 'runner', event('j1', { lastStatus: 'PENDING' }));
    expect((await store.get('j1'))?.status).toBe('PENDING');
    await applyTaskStateChange(store, 'runner', event('j1', { lastStatus: 'RUNNING', startedAt: '2026-05-01T10:01:00.000Z' }));
    expect(await store.get('j1')).toMatchObject({ status: 'RUNNING', startedAt: '2026-05-01T10:01:00.000Z', runnerRef: TASK_ARN });
    await applyTaskStateChange(store, 'runner', event('j1', { lastStatus: 'DEPROVISIONING' }));
    expect((await store.get('j1'))?.status).toBe('DEPROVISIONING');
    const result = await applyTaskStateChange(
      store,
      'runner',
      event('j1', { lastStatus: 'STOPPED', stoppedAt: '2026-05-01T10:09:00.000Z', containers: [{ name: 'runner', exitCode: 0 }] }),
    );
    expect(result).toMatchObject({ job: { status: 'SUCCEEDED', finishedAt: '2026-05-01T10:09:00.000Z' } });
  });

  it('ignores events that arrive late or twice', async () => {
    await store.create(aJob('j1'));
    await applyTaskStateChange(store, 'runner', event('j1', { lastStatus: 'RUNNING' }));
    await applyTaskStateChange(store, 'runner', event('j1', { lastStatus: 'PENDING' }));
    expect((await store.get('j1'))?.status).toBe('RUNNING');
    await applyTaskStateChange(store, 'runner', event('j1', { lastStatus: 'STOPPED', containers: [{ name: 'runner', exitCode: 137 }] }));
    await applyTaskStateChange(store, 'runner', event('j1', { lastStatus: 'STOPPED', containers: [{ name: 'runner', exitCode: 0 }] }));
    expect(await store.get('j1')).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/exit code 137/) });
  });

  it('keeps the reason the run itself recorded over the one the exit code gives', async () => {
    await store.create(aJob('j1'));
    await store.update('j1', { status: 'FAILED', reason: 'Brightspace refused the user name or password.' });
    await applyTaskStateChange(store, 'runner', event('j1', { lastStatus: 'STOPPED', containers: [{ name: 'runner', exitCode: 1 }] }));
    expect((await store.get('j1'))?.reason).toBe('Brightspace refused the user name or password.');
  });

  it('finds the job through startedBy when the overrides are absent, and ignores tasks of no job', async () => {
    await store.create(aJob('j2'));
    await applyTaskStateChange(store, 'runner', { taskArn: TASK_ARN, startedBy: 'j2', lastStatus: 'RUNNING' });
    expect((await store.get('j2'))?.status).toBe('RUNNING');
    expect(await applyTaskStateChange(store, 'runner', { taskArn: TASK_ARN, lastStatus: 'RUNNING' })).toEqual({ ignored: 'the task names no job' });
    expect(await applyTaskStateChange(store, 'runner', event('gone', { lastStatus: 'RUNNING' }))).toEqual({ ignored: 'no job gone' });
    expect(await dynamo.items(tableName)).toHaveLength(1);
    expect(await applyTaskStateChange(store, 'runner', event('j2', { lastStatus: 'NEWSTATE' }))).toEqual({ ignored: 'unknown task status NEWSTATE' });
  });
});

describe('reading a job that has gone quiet', () => {
  let tableName: string;
  let store: JobStore;
  let ecs: ECSClient;
  let ecsMock: ReturnType<typeof mockClient>;
  let clock: Date;
  let reading: JobStore;

  beforeEach(async () => {
    tableName = await dynamo.createJobsTable();
    clock = new Date('2026-05-01T10:00:30.000Z');
    store = createDynamoJobStore({ client: dynamo.client, tableName, retentionDays: 30, now: () => clock });
    ecs = new ECSClient({ region: 'ca-central-1' });
    ecsMock = mockClient(ecs);
    reading = withEcsRefresh(store, { ecs, cluster: CLUSTER, containerName: 'runner', quietAfterMs: 120_000, now: () => clock });
  });
  afterEach(() => {
    ecsMock.restore();
  });

  it('does not ask ECS about a job that was updated recently, or has finished', async () => {
    await store.create(aJob('fresh', { status: 'RUNNING', runnerRef: TASK_ARN, updatedAt: '2026-05-01T10:00:00.000Z' }));
    await store.create(aJob('done', { status: 'SUCCEEDED', runnerRef: TASK_ARN, updatedAt: '2026-04-01T10:00:00.000Z' }));
    expect((await reading.get('fresh'))?.status).toBe('RUNNING');
    expect((await reading.get('done'))?.status).toBe('SUCCEEDED');
    expect(await reading.get('none')).toBeUndefined();
    expect(ecsMock.commandCalls(DescribeTasksCommand)).toHaveLength(0);
  });

  it('ends a quiet job from the stopped task ECS still describes', async () => {
    await store.create(aJob('j1', { status: 'RUNNING', runnerRef: TASK_ARN }));
    clock = new Date('2026-05-01T10:30:00.000Z');
    ecsMock.on(DescribeTasksCommand, { cluster: CLUSTER, tasks: [TASK_ARN] }).resolves({
      tasks: [{ taskArn: TASK_ARN, lastStatus: 'STOPPED', stoppedAt: new Date('2026-05-01T10:20:00.000Z'), containers: [{ name: 'runner', exitCode: 0 }] }],
      failures: [],
    });
    expect(await reading.get('j1')).toMatchObject({ status: 'SUCCEEDED', finishedAt: '2026-05-01T10:20:00.000Z' });
    expect((await store.get('j1'))?.status).toBe('SUCCEEDED');
  });

  it('ends a job whose task ECS has forgotten (MISSING)', async () => {
    await store.create(aJob('j1', { status: 'RUNNING', runnerRef: TASK_ARN }));
    clock = new Date('2026-05-01T13:00:00.000Z');
    ecsMock.on(DescribeTasksCommand).resolves({ tasks: [], failures: [{ arn: TASK_ARN, reason: 'MISSING' }] });
    expect(await reading.get('j1')).toMatchObject({ status: 'FAILED', reason: formatMessage(MISSING_TASK_REASON) });
  });

  it('answers with what the store knows when ECS cannot be reached', async () => {
    // The failed refresh is logged for the operator: expected here, so asserted, not printed.
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await store.create(aJob('j1', { status: 'RUNNING', runnerRef: TASK_ARN }));
    clock = new Date('2026-05-01T10:30:00.000Z');
    ecsMock.on(DescribeTasksCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    expect(await reading.get('j1')).toMatchObject({ status: 'RUNNING' });
    expect(log).toHaveBeenCalledWith('job j1: refreshing from ECS failed', 'ThrottlingException');
  });
});
