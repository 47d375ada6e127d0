// Lambda entry for POST /api/toc: signs in to the Brightspace site and returns the course's table of
// contents. It keeps no jobs and starts no runs. Each request has the function's instance to itself,
// so the answer is parsed in place; how many loads one user has going at once is counted in DynamoDB
// (the verified token's subject, whatever the header looked like), as the local server counts them.
import { tocLoadLimitFromEnv } from '../aws-deps.ts';
import { loadTableOfContentsJson } from '../../engine/load-table-of-contents.ts';
import { handleToc } from '../../http/routes.ts';
import { NO_JOB_RUNNER, NO_JOB_STORE, apiDepsFromEnv, lambdaHandlerOf } from './http-lambda.ts';

export const handler = lambdaHandlerOf(
  handleToc,
  apiDepsFromEnv(process.env, { jobs: NO_JOB_STORE, runner: NO_JOB_RUNNER, loadTableOfContents: loadTableOfContentsJson, tocLoads: tocLoadLimitFromEnv(process.env) }),
);
