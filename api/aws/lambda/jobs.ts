// Lambda entry for GET /api/jobs: the caller's runs, newest first, from the jobs table's owner index,
// each succeeded run's report link signed with the current report-link key, and who marked it ready
// for launch. It starts no runs and keeps no dismissals.
import { handleJobs } from '../../http/history-routes.ts';
import { jobHistoryFromEnv, protocolStoreFromEnv } from '../aws-deps.ts';
import { reportSigningKeyFromEnv } from '../report-signing-key.ts';
import { NO_JOB_RUNNER, NO_JOB_STORE, NO_TABLE_OF_CONTENTS, apiDepsFromEnv, lambdaHandlerOf } from './http-lambda.ts';

export const handler = lambdaHandlerOf(
  handleJobs,
  apiDepsFromEnv(process.env, {
    jobs: NO_JOB_STORE,
    history: jobHistoryFromEnv(process.env),
    protocols: protocolStoreFromEnv(process.env),
    runner: NO_JOB_RUNNER,
    loadTableOfContents: NO_TABLE_OF_CONTENTS,
    reportSigningKey: reportSigningKeyFromEnv(process.env),
  }),
);
