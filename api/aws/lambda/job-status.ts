// Lambda entry for GET /api/job-status/{jobArn}: the caller's job, brought up to date from ECS when
// it has gone quiet, and its report's link signed with the current report-link key. It starts no runs.
import { handleJobStatus } from '../../http/routes.ts';
import { refreshingJobStoreFromEnv } from '../aws-deps.ts';
import { reportSigningKeyFromEnv } from '../report-signing-key.ts';
import { NO_JOB_RUNNER, NO_TABLE_OF_CONTENTS, apiDepsFromEnv, lambdaHandlerOf } from './http-lambda.ts';

export const handler = lambdaHandlerOf(
  handleJobStatus,
  apiDepsFromEnv(process.env, {
    jobs: refreshingJobStoreFromEnv(process.env),
    runner: NO_JOB_RUNNER,
    loadTableOfContents: NO_TABLE_OF_CONTENTS,
    reportSigningKey: reportSigningKeyFromEnv(process.env),
  }),
);
