// Lambda entry for DELETE /api/jobs/{jobArn}: its owner cancels a run; the job ends FAILED
// ("Cancelled") in the jobs table and its Fargate task is stopped. It starts no runs and signs no
// report links (a cancelled run has none).
import { handleCancelJob } from '../../http/routes.ts';
import { jobCancellerFromEnv, jobStoreFromEnv } from '../aws-deps.ts';
import { NO_TABLE_OF_CONTENTS, apiDepsFromEnv, lambdaHandlerOf } from './http-lambda.ts';

export const handler = lambdaHandlerOf(
  handleCancelJob,
  apiDepsFromEnv(process.env, { jobs: jobStoreFromEnv(process.env), runner: jobCancellerFromEnv(process.env), loadTableOfContents: NO_TABLE_OF_CONTENTS }),
);
