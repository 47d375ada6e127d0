// The AWS edges built from the environment the CDK stack sets: one SDK client of each kind per
// Lambda instance or task, reused across invocations.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ECSClient } from '@aws-sdk/client-ecs';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
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

/** The verdict cache of the deployment: its table, and the reports bucket for values too large for it. */
export function verdictCacheFromEnv(env: Environment): VerdictCache {
  return createDynamoVerdictCache({
    client: dynamoClient(),
    tableName: requireEnv(env, ENV.verdictsTable),
    s3: s3Client(),
    bucket: requireEnv(env, ENV.reportsBucket),
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

/**
 * What the Fargate task compares its report with and scores it by: the jobs table, the dismissals,
 * the reports bucket, and the client's protocol with the course's answers.
 */
export function baselinesFromEnv(env: Environment): BaselineSource {
  return createBaselineSource({ history: jobHistoryFromEnv(env), dismissals: dismissalStoreFromEnv(env), reports: reportStoreFromEnv(env), protocols: protocolStoreFromEnv(env) });
}

/** The number of tables of contents one user may load at once, as on the local server. */
export const TOC_LOADS_PER_USER = 2;

/** The per-user limit of /api/toc, counted in the jobs table (api/aws/dynamo-concurrency-limit.ts). */
export function tocLoadLimitFromEnv(env: Environment): ConcurrencyLimit {
  // A lease a little longer than the function's 29 s timeout: a load never outlives it.
  return createDynamoConcurrencyLimit({ client: dynamoClient(), tableName: requireEnv(env, ENV.jobsTable), kind: 'toc', max: TOC_LOADS_PER_USER, leaseMs: 35_000 });
}
