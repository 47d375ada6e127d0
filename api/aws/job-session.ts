// The AWS credentials one run's Fargate task works with: a session of the job role (infra/lib/qa-api/
// runner.ts), taken by the function that starts the run, tagged with that job, its owner, its report
// and its course, so the role's policy lets the task reach only its own job's item, its own report's
// objects, its owner's history and its course's cached verdicts. The tags are set here, by the trusted starter, never by the task: the
// task's own role may only decrypt what it was handed.
import type { AssumeRoleCommandOutput, STSClient } from '@aws-sdk/client-sts';
import { AssumeRoleCommand } from '@aws-sdk/client-sts';
import type { JobRecord } from '../jobs/types.ts';
import { verdictPartition } from './dynamo-verdict-cache.ts';

/** The session tags the job role's policy names (`${aws:PrincipalTag/<tag>}`). */
export const JOB_SESSION_TAGS = {
  /** The job's id: the one item of the jobs table the task may read and update. */
  job: 'ctpo-job',
  /** Its owner: whose dismissals and protocols the task may read. */
  owner: 'ctpo-owner',
  /** The job's report name: the only report objects the task may write or delete. */
  report: 'ctpo-report',
  /** The report the run compares itself with (the owner's previous run of the course), when there is one. */
  baseline: 'ctpo-baseline',
  /** The course's partition of the verdict cache (`<site origin>/<org unit>`): the only verdicts the task may read or write. */
  course: 'ctpo-course',
} as const;

/**
 * How long a job's session lasts: an hour, the most a session taken with another role's credentials
 * (the starter's) may last. A run is stopped after 30 minutes (fargate-task.ts), and a task that
 * starts late shortens its run to end before its session does.
 */
export const JOB_SESSION_SECONDS = 3600;

/**
 * The attributes of a job's item its task may name in an update: what a run records, and the key and
 * the status rank its conditions and the store's bookkeeping use. Never `owner` (job-status signs the
 * report link for the owner it reads), `filename`, the course or the runner reference.
 */
export const JOB_UPDATE_ATTRIBUTES = ['id', 'status', 'statusRank', 'updatedAt', 'startedAt', 'finishedAt', 'progress', 'reason', 'courseName', 'summary'] as const;

/** What a task needs to act as its job: the session's keys and when they end. */
export interface JobSession {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  /** ISO 8601. */
  expiration: string;
}

// A session tag's value: at most 256 of these characters (IAM's rule), so a value a policy names
// can hold no wildcard.
const TAG_VALUE = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]{1,256}$/u;

function tag(key: string, value: string): { Key: string; Value: string } {
  if (!TAG_VALUE.test(value)) throw new Error(`The job's ${key} cannot be a session tag.`);
  return { Key: key, Value: value };
}

/** Takes a session of the job role for one job. `baseline`: the report name the run may read to compare with. */
export async function assumeJobRole(
  sts: STSClient,
  roleArn: string,
  job: Pick<JobRecord, 'id' | 'owner' | 'filename' | 'siteUrl' | 'orgUnitId'>,
  baseline?: string,
): Promise<JobSession> {
  const tags = [
    tag(JOB_SESSION_TAGS.job, job.id),
    tag(JOB_SESSION_TAGS.owner, job.owner),
    tag(JOB_SESSION_TAGS.report, job.filename),
    // The partition the run's engine reads and writes: the origin of the site the job names, as the
    // engine takes it (siteOriginOf drops any path), and its org unit.
    tag(JOB_SESSION_TAGS.course, verdictPartition({ site: job.siteUrl, orgUnitId: job.orgUnitId })),
  ];
  if (baseline !== undefined) tags.push(tag(JOB_SESSION_TAGS.baseline, baseline));
  const answer: AssumeRoleCommandOutput = await sts.send(
    new AssumeRoleCommand({
      RoleArn: roleArn,
      // Names the job in CloudTrail; 64 characters at most.
      RoleSessionName: `ctpo-run-${job.id}`.slice(0, 64).replace(/[^\w+=,.@-]/g, '-'),
      DurationSeconds: JOB_SESSION_SECONDS,
      Tags: tags,
    }),
  );
  const credentials = answer.Credentials;
  if (credentials?.AccessKeyId === undefined || credentials.SecretAccessKey === undefined || credentials.SessionToken === undefined || credentials.Expiration === undefined) {
    throw new Error('STS returned no credentials.');
  }
  return {
    accessKeyId: credentials.AccessKeyId,
    secretAccessKey: credentials.SecretAccessKey,
    sessionToken: credentials.SessionToken,
    expiration: credentials.Expiration.toISOString(),
  };
}
