import { ECSClient, RunTaskCommand, StopTaskCommand } from '@aws-sdk/client-ecs';
import { EncryptCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { decryptCredentials, decryptJobSession } from '../../../api/aws/credentials-cipher.ts';
import { createDynamoJobHistory } from '../../../api/aws/dynamo-job-history.ts';
import { createDynamoJobStore } from '../../../api/aws/dynamo-job-store.ts';
import { CANCELLED_TASK_REASON, createEcsJobRunner } from '../../../api/aws/ecs-job-runner.ts';
import { cancelJob } from '../../../api/jobs/cancel-job.ts';
import { AppError } from '../../../api/errors.ts';
import type { JobRunner, JobStore } from '../../../api/jobs/types.ts';
import { startDynalite } from '../support/dynalite.ts';
import type { Dynalite } from '../support/dynalite.ts';
import { fakeKms } from './fake-kms.ts';
import type { FakeKms } from './fake-kms.ts';
import { SESSION_EXPIRATION, fakeSts } from './fake-sts.ts';
import type { FakeSts } from './fake-sts.ts';
import { aJob } from '../support/job-record.ts';

/** The runner logs why AWS refused, for the operator: expected in these tests, so asserted, not printed. */
const operatorLog = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

// A real DynamoDB-compatible server on a machine shared with other test runs.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const KEY = 'arn:aws:kms:ca-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const CLUSTER = 'arn:aws:ecs:ca-central-1:111122223333:cluster/ctpo';
const TASK_DEF = 'arn:aws:ecs:ca-central-1:111122223333:task-definition/ctpo-runner:3';
const TASK_ARN = 'arn:aws:ecs:ca-central-1:111122223333:task/ctpo/0123456789abcdef0123456789abcdef';
const credentials = { username: 'qa.bot', password: 'S3cret!pass' };
const JOB_ROLE = 'arn:aws:iam::111122223333:role/ctpo-job';

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(() => dynamo.close());

describe('the ECS job runner', () => {
  let tableName: string;
  let kms: FakeKms;
  let sts: FakeSts;
  let ecs: ECSClient;
  let ecsMock: ReturnType<typeof mockClient>;
  let store: JobStore;
  let runner: JobRunner;

  beforeEach(async () => {
    tableName = await dynamo.createJobsTable();
    kms = fakeKms();
    sts = fakeSts();
    ecs = new ECSClient({ region: 'ca-central-1' });
    ecsMock = mockClient(ecs);
    store = createDynamoJobStore({ client: dynamo.client, tableName, retentionDays: 30 });
    runner = createEcsJobRunner({
      ecs,
      kms: kms.client,
      store,
      cluster: CLUSTER,
      taskDefinition: TASK_DEF,
      containerName: 'runner',
      subnets: ['subnet-a', 'subnet-b'],
      securityGroups: ['sg-1'],
      credentialsKeyId: KEY,
      sts: sts.client,
      jobRoleArn: JOB_ROLE,
      history: createDynamoJobHistory({ client: dynamo.client, tableName }),
    });
  });
  afterEach(() => {
    kms.restore();
    sts.restore();
    ecsMock.restore();
  });

  it('stops the task of a cancelled run with ECS StopTask, in its cluster', async () => {
    ecsMock.on(RunTaskCommand).resolves({ tasks: [{ taskArn: TASK_ARN, lastStatus: 'PROVISIONING' }], failures: [] });
    ecsMock.on(StopTaskCommand).resolves({ task: { taskArn: TASK_ARN, desiredStatus: 'STOPPED' } });
    await store.create(aJob('job-c'));
    await runner.submit(aJob('job-c'), credentials);
    const ended = await cancelJob((await store.get('job-c'))!, { jobs: store, runner });
    expect(ended).toMatchObject({ status: 'FAILED', reason: 'Cancelled', runnerRef: TASK_ARN });
    expect(ecsMock.commandCalls(StopTaskCommand).map((call) => call.args[0].input)).toEqual([{ cluster: CLUSTER, task: TASK_ARN, reason: CANCELLED_TASK_REASON }]);
  });

  it('stops the task RunTask answers with when the run was cancelled meanwhile, and stops nothing for a run with no task yet', async () => {
    await store.create(aJob('job-d'));
    // Cancelled before its task is known: nothing to stop yet.
    await cancelJob((await store.get('job-d'))!, { jobs: store, runner });
    expect(ecsMock.commandCalls(StopTaskCommand)).toHaveLength(0);
    // RunTask answers after the cancel: the task it started is stopped at once.
    ecsMock.on(RunTaskCommand).resolves({ tasks: [{ taskArn: TASK_ARN, lastStatus: 'PROVISIONING' }], failures: [] });
    ecsMock.on(StopTaskCommand).resolves({});
    await runner.submit(aJob('job-d'), credentials);
    expect(ecsMock.commandCalls(StopTaskCommand).map((call) => call.args[0].input.task)).toEqual([TASK_ARN]);
    expect(await store.get('job-d')).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
  });

  it('starts one Fargate task per run, passing only the job id and the encrypted credentials', async () => {
    ecsMock.on(RunTaskCommand).resolves({ tasks: [{ taskArn: TASK_ARN, lastStatus: 'PROVISIONING' }], failures: [] });
    await store.create(aJob('job-1'));
    await runner.submit(aJob('job-1'), credentials);

    const [call] = ecsMock.commandCalls(RunTaskCommand);
    const input = call!.args[0].input;
    expect(input).toMatchObject({
      cluster: CLUSTER,
      taskDefinition: TASK_DEF,
      launchType: 'FARGATE',
      count: 1,
      startedBy: 'job-1',
      networkConfiguration: { awsvpcConfiguration: { subnets: ['subnet-a', 'subnet-b'], securityGroups: ['sg-1'], assignPublicIp: 'ENABLED' } },
    });
    const environment = input.overrides?.containerOverrides?.[0]?.environment ?? [];
    expect(input.overrides?.containerOverrides?.[0]?.name).toBe('runner');
    expect(environment.map((variable) => variable.name)).toEqual(['CTPO_JOB_ID', 'CTPO_ENCRYPTED_CREDENTIALS', 'CTPO_ENCRYPTED_SESSION']);
    expect(JSON.stringify(input)).not.toMatch(/S3cret|qa\.bot|session-secret|session-token/);

    // What the task receives decrypts, for this job only, to the credentials.
    const ciphertext = environment.find((variable) => variable.name === 'CTPO_ENCRYPTED_CREDENTIALS')!.value!;
    expect(await decryptCredentials(kms.client, KEY, 'job-1', ciphertext)).toEqual(credentials);

    expect(await store.get('job-1')).toMatchObject({ status: 'PROVISIONING', runnerRef: TASK_ARN });
    expect(JSON.stringify(await dynamo.items(tableName))).not.toMatch(/S3cret|qa\.bot/);
  });

  it("hands the task a session of the job role tagged with its job, owner, report and course, and the owner's previous report of the course to compare with", async () => {
    ecsMock.on(RunTaskCommand).resolves({ tasks: [{ taskArn: TASK_ARN, lastStatus: 'PROVISIONING' }], failures: [] });
    // A site address with a path: the course's tag is its origin, as the engine's cache partition is.
    const course = { siteUrl: 'https://school.brightspace.com/d2l/home', orgUnitId: 6606 };
    const earlier = { ...aJob('job-0'), ...course, status: 'SUCCEEDED' as const, filename: 'acme-ou6606-earlier', createdAt: '2026-11-27T10:00:00.000Z' };
    const job = { ...aJob('job-2'), ...course, createdAt: '2026-11-28T10:00:00.000Z' };
    await store.create(earlier);
    await store.create(job);
    await runner.submit(job, credentials);

    expect(sts.calls()).toEqual([
      {
        RoleArn: JOB_ROLE,
        RoleSessionName: 'ctpo-run-job-2',
        DurationSeconds: 3600,
        Tags: [
          { Key: 'ctpo-job', Value: 'job-2' },
          { Key: 'ctpo-owner', Value: job.owner },
          { Key: 'ctpo-report', Value: job.filename },
          { Key: 'ctpo-course', Value: 'https://school.brightspace.com/6606' },
          { Key: 'ctpo-baseline', Value: 'acme-ou6606-earlier' },
        ],
      },
    ]);
    const environment = ecsMock.commandCalls(RunTaskCommand)[0]!.args[0].input.overrides?.containerOverrides?.[0]?.environment ?? [];
    expect(environment.map((variable) => variable.name)).toEqual(['CTPO_JOB_ID', 'CTPO_ENCRYPTED_CREDENTIALS', 'CTPO_ENCRYPTED_SESSION', 'CTPO_BASELINE_REPORT']);
    expect(environment[3]!.value).toBe('acme-ou6606-earlier');
    const sealed = environment[2]!.value!;
    expect(await decryptJobSession(kms.client, KEY, 'job-2', sealed)).toEqual({
      accessKeyId: 'ASIA1',
      secretAccessKey: 'session-secret-1',
      sessionToken: 'session-token-1',
      expiration: SESSION_EXPIRATION.toISOString(),
    });
    // Bound to its job like the credentials: another job's task cannot open it.
    await expect(decryptJobSession(kms.client, KEY, 'job-0', sealed)).rejects.toThrow();
  });

  it('starts no task when the session cannot be taken, and fails the job saying so', async () => {
    const log = operatorLog();
    sts.mock.rejects(Object.assign(new Error('not authorized to perform: sts:TagSession'), { name: 'AccessDenied' }));
    await store.create(aJob('job-3'));
    await expect(runner.submit(aJob('job-3'), credentials)).rejects.toBeInstanceOf(AppError);
    expect(ecsMock.commandCalls(RunTaskCommand)).toHaveLength(0);
    expect(await store.get('job-3')).toMatchObject({ status: 'FAILED' });
    expect(log).toHaveBeenCalledWith("job job-3: preparing the task's credentials failed", 'AccessDenied: not authorized to perform: sts:TagSession');
  });

  it('leaves startedBy out for a job id RunTask would refuse there, and still names the job', async () => {
    ecsMock.on(RunTaskCommand).resolves({ tasks: [{ taskArn: TASK_ARN, lastStatus: 'PENDING' }] });
    await store.create(aJob('job:1'));
    await runner.submit(aJob('job:1'), credentials);
    const input = ecsMock.commandCalls(RunTaskCommand)[0]!.args[0].input;
    expect(input.startedBy).toBeUndefined();
    expect(input.overrides?.containerOverrides?.[0]?.environment?.[0]).toEqual({ name: 'CTPO_JOB_ID', value: 'job:1' });
    expect(await store.get('job:1')).toMatchObject({ status: 'PENDING', runnerRef: TASK_ARN });
  });

  it('fails the job, saying why, when RunTask answers with failures[]', async () => {
    const log = operatorLog();
    ecsMock.on(RunTaskCommand).resolves({ tasks: [], failures: [{ reason: 'RESOURCE:FARGATE', detail: 'Capacity is unavailable at this time.' }] });
    await store.create(aJob('job-1'));
    const submitted = runner.submit(aJob('job-1'), credentials);
    await expect(submitted).rejects.toBeInstanceOf(AppError);
    await submitted.catch((error: AppError) => {
      expect(error.code).toBe('overloaded');
      expect(error.message).toMatch(/RESOURCE:FARGATE/);
    });
    expect(await store.get('job-1')).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/could not start the test run \(RESOURCE:FARGATE/) });
    expect(log).toHaveBeenCalledWith('job job-1: RunTask refused', 'RESOURCE:FARGATE', 'Capacity is unavailable at this time.');
  });

  it('fails the job when RunTask answers with no task at all', async () => {
    const log = operatorLog();
    ecsMock.on(RunTaskCommand).resolves({});
    await store.create(aJob('job-1'));
    await expect(runner.submit(aJob('job-1'), credentials)).rejects.toMatchObject({ code: 'overloaded' });
    expect((await store.get('job-1'))?.status).toBe('FAILED');
    expect(log).toHaveBeenCalledWith('job job-1: RunTask refused', undefined, undefined);
  });

  it('tells a busy AWS from a broken deployment when RunTask throws', async () => {
    const log = operatorLog();
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    ecsMock.on(RunTaskCommand).rejectsOnce(throttled).rejectsOnce(Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' }));
    await store.create(aJob('job-1'));
    await store.create(aJob('job-2'));
    await expect(runner.submit(aJob('job-1'), credentials)).rejects.toMatchObject({ code: 'overloaded' });
    await expect(runner.submit(aJob('job-2'), credentials)).rejects.toMatchObject({ code: 'internal' });
    expect((await store.get('job-1'))?.status).toBe('FAILED');
    expect((await store.get('job-2'))?.reason).toBe('AWS could not start the test run. Try again in a few minutes.');
    expect(log.mock.calls.map((call) => call[0])).toEqual(['job job-1: RunTask failed', 'job job-2: RunTask failed']);
  });

  it('starts nothing when the credentials cannot be encrypted', async () => {
    const log = operatorLog();
    kms.mock.on(EncryptCommand).rejects(Object.assign(new Error('key disabled'), { name: 'DisabledException' }));
    await store.create(aJob('job-1'));
    await expect(runner.submit(aJob('job-1'), credentials)).rejects.toMatchObject({ code: 'internal' });
    expect(ecsMock.commandCalls(RunTaskCommand)).toHaveLength(0);
    expect((await store.get('job-1'))?.status).toBe('FAILED');
    expect(log.mock.calls[0]?.[0]).toBe("job job-1: preparing the task's credentials failed");
  });
});
