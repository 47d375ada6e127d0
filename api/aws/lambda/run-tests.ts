// Lambda entry for POST /api/run-tests: records the job and starts its Fargate task.
import { handleRunTests } from '../../http/routes.ts';
import { jobRunnerFromEnv, jobStoreFromEnv } from '../aws-deps.ts';
import { NO_TABLE_OF_CONTENTS, apiDepsFromEnv, lambdaHandlerOf } from './http-lambda.ts';

const jobs = jobStoreFromEnv(process.env);
export const handler = lambdaHandlerOf(
  handleRunTests,
  apiDepsFromEnv(process.env, { jobs, runner: jobRunnerFromEnv(process.env, jobs), loadTableOfContents: NO_TABLE_OF_CONTENTS }),
);
