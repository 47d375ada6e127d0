// The AWS edges built from the environment the CDK stack sets: one SDK client of each kind per
// Lambda instance or task, reused across invocations.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ECSClient } from '@aws-sdk/client-ecs';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { STSClient } from '@aws-sdk/client-sts';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createBaselineSource } from '../jobs/baseline.ts';
import type { BaselineSource, DismissalStore, JobHistory, JobRunner, JobStore, ProtocolStore, ReportStore } from '../jobs/types.ts';
import { createDynamoProtocolStore } from './dynamo-protocol-store.ts';
import { createDynamoDismissalStore } from './dynamo-dismissal-store.ts';
import { createDynamoConcurrencyLimit } from './dynamo-concurrency-limit.ts';
import type { ConcurrencyLimit } from '../http/concurrency-limit.ts';
import { createDynamoJobHistory } from './dynamo-job-history.ts';
import { createDynamoJobStore } from './dynamo-job-store.ts';
import { createEcsJobRunner, stopJobTask } from './ecs-job-runner.ts';
import type { JobSession } from './job-session.ts';
import { createS3ReportStore } from './s3-report-store.ts';
import { createDynamoVerdictCache } from './dynamo-verdict-cache.ts';
import type { VerdictCache } from '../engine/verdict-cache.ts';
import { ENV, requireEnv, requireList, requirePositiveInteger } from './settings.ts';
import type { Environment } from './settings.ts';
import { withEcsRefresh } from './task-state-sync.ts';

/** A running job with no news for this long is checked with ECS directly when someone asks. */
const QUIET_AFTER_MS = 2 * 60_000;

let dynamo: DynamoDBDocumentClient | undefined;
let ecs: ECSClient | undefined;
let kms: KMSClient | undefined;
let s3: S3Client | undefined;

const dynamoClient = () => (dynamo ??= DynamoDBDocumentClient.from(new DynamoDBClient({})));
const ecsClient = () => (ecs ??= new ECSClient({}));
export const kmsClient = (): KMSClient => (kms ??= new KMSClient({}));
const s3Client = () => (s3 ??= new S3Client({}));
let sts: STSClient | undefined;
const stsClient = () => (sts ??= new STSClient({}));

export function jobStoreFromEnv(env: Environment): JobStore {
  return createDynamoJobStore({
    client: dynamoClient(),
    tableName: requireEnv(env, ENV.jobsTable),
    retentionDays: requirePositiveInteger(env, ENV.reportExpiryDays),
  });
}

/** The job store as job-status reads it: a quiet running job is brought up to date from ECS. */
export function refreshingJobStoreFromEnv(env: Environment): JobStore {
  return withEcsRefresh(jobStoreFromEnv(env), {
    ecs: ecsClient(),
    cluster: requireEnv(env, ENV.cluster),
    containerName: requireEnv(env, ENV.containerName),
    quietAfterMs: QUIET_AFTER_MS,
  });
}

export function jobRunnerFromEnv(env: Environment, store: JobStore): JobRunner {
  return createEcsJobRunner({
    ecs: ecsClient(),
    kms: kmsClient(),
    store,
    cluster: requireEnv(env, ENV.cluster),
    taskDefinition: requireEnv(env, ENV.taskDefinition),
    containerName: requireEnv(env, ENV.containerName),
    subnets: requireList(env, ENV.subnets),
    securityGroups: requireList(env, ENV.securityGroups),
    credentialsKeyId: requireEnv(env, ENV.credentialsKey),
    sts: stsClient(),
    jobRoleArn: requireEnv(env, ENV.jobRole),
    history: jobHistoryFromEnv(env),
  });
}

/** The runner as DELETE /api/jobs/{id} uses it: it starts nothing, it only stops a job's task. */
export function jobCancellerFromEnv(env: Environment): JobRunner {
  const options = { ecs: ecsClient(), cluster: requireEnv(env, ENV.cluster) };
  return {
    submit: async () => {
      throw new Error('This function cancels runs; it starts none.');
    },
    cancel: (job) => stopJobTask(options, job),
  };
}

export function reportStoreFromEnv(env: Environment): ReportStore {
  return createS3ReportStore({
    client: s3Client(),
    bucket: requireEnv(env, ENV.reportsBucket),
    prefix: requireEnv(env, ENV.reportsPrefix),
  });
}

export function jobHistoryFromEnv(env: Environment): JobHistory {
  return createDynamoJobHistory({ client: dynamoClient(), tableName: requireEnv(env, ENV.jobsTable) });
}

export function dismissalStoreFromEnv(env: Environment): DismissalStore {
  return createDynamoDismissalStore({ client: dynamoClient(), tableName: requireEnv(env, ENV.dismissalsTable) });
}

export function protocolStoreFromEnv(env: Environment): ProtocolStore {
  return createDynamoProtocolStore({ client: dynamoClient(), tableName: requireEnv(env, ENV.protocolsTable) });
}

/** What the Fargate task works with, all through its job's session (job-session.ts). */
export interface TaskDeps {
  jobs: JobStore;
  reports: ReportStore;
  /**
   * What it compares its report with and scores it by: the report it was handed the name of, its
   * owner's dismissals of the course, and the client's protocol with the course's answers.
   */
  baselines: BaselineSource;
  /** The deployment's verdict cache (api/aws/dynamo-verdict-cache.ts). */
  cache: VerdictCache;
}

export function taskDepsFromEnv(env: Environment, session: JobSession): TaskDeps {
  const credentials = { accessKeyId: session.accessKeyId, secretAccessKey: session.secretAccessKey, sessionToken: session.sessionToken, expiration: new Date(session.expiration) };
  return taskDepsOf(env, { dynamo: DynamoDBDocumentClient.from(new DynamoDBClient({ credentials })), s3: new S3Client({ credentials }) });
}

/** The task's stores on the given clients (the session's; a test's that check each call against the job role). */
export function taskDepsOf(env: Environment, clients: { dynamo: DynamoDBDocumentClient; s3: S3Client }): TaskDeps {
  const client = clients.dynamo;
  const reports = createS3ReportStore({ client: clients.s3, bucket: requireEnv(env, ENV.reportsBucket), prefix: requireEnv(env, ENV.reportsPrefix) });
  // The previous run is the one the starter looked up: the session may read that report and no other.
  const baseline = env[ENV.baselineReport]?.trim();
  const previous = { previousSucceeded: async () => (baseline === undefined || baseline === '' ? undefined : { filename: baseline }) };
  return {
    jobs: createDynamoJobStore({ client, tableName: requireEnv(env, ENV.jobsTable), retentionDays: requirePositiveInteger(env, ENV.reportExpiryDays) }),
    reports,
    baselines: createBaselineSource({
      history: previous,
      dismissals: createDynamoDismissalStore({ client, tableName: requireEnv(env, ENV.dismissalsTable) }),
      reports,
      protocols: createDynamoProtocolStore({ client, tableName: requireEnv(env, ENV.protocolsTable) }),
    }),
    cache: createDynamoVerdictCache({ client, tableName: requireEnv(env, ENV.verdictsTable), s3: clients.s3, bucket: requireEnv(env, ENV.reportsBucket) }),
  };
}

/** The number of tables of contents one user may load at once, as on the local server. */
export const TOC_LOADS_PER_USER = 2;

/** The per-user limit of /api/toc, counted in the jobs table (api/aws/dynamo-concurrency-limit.ts). */
export function tocLoadLimitFromEnv(env: Environment): ConcurrencyLimit {
  // A lease a little longer than the function's 29 s timeout: a load never outlives it.
  return createDynamoConcurrencyLimit({ client: dynamoClient(), tableName: requireEnv(env, ENV.jobsTable), kind: 'toc', max: TOC_LOADS_PER_USER, leaseMs: 35_000 });
}
