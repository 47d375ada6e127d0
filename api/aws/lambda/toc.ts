// Lambda entry for POST /api/toc: signs in to the Brightspace site and returns the course's table of
// contents. It keeps no jobs and starts no runs. Each request has the function's instance to itself,
// so the answer is parsed in place, and the caller limit is the edge's (infra): no per-user count here.
import { loadTableOfContentsJson } from '../../engine/load-table-of-contents.ts';
import { handleToc } from '../../http/routes.ts';
import { NO_JOB_RUNNER, NO_JOB_STORE, apiDepsFromEnv, lambdaHandlerOf } from './http-lambda.ts';

export const handler = lambdaHandlerOf(handleToc, apiDepsFromEnv(process.env, { jobs: NO_JOB_STORE, runner: NO_JOB_RUNNER, loadTableOfContents: loadTableOfContentsJson }));
