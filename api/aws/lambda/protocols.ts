// Lambda entry for /api/protocols and /api/protocols/runs/{id}: the caller's protocols by client,
// and the sign-off of a finished run (answers recorded under their e-mail from the user pool, the
// run's report written again in the reports bucket). It starts no runs.
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { handleProtocols } from '../../http/protocol-routes.ts';
import { jobStoreFromEnv, protocolStoreFromEnv, reportStoreFromEnv } from '../aws-deps.ts';
import { ENV, requireEnv } from '../settings.ts';
import { cognitoNameOf } from '../user-directory.ts';
import { NO_JOB_RUNNER, NO_TABLE_OF_CONTENTS, apiDepsFromEnv, lambdaHandlerOf } from './http-lambda.ts';

export const handler = lambdaHandlerOf(
  handleProtocols,
  apiDepsFromEnv(process.env, {
    jobs: jobStoreFromEnv(process.env),
    protocols: protocolStoreFromEnv(process.env),
    reports: reportStoreFromEnv(process.env),
    nameOf: cognitoNameOf({ client: new CognitoIdentityProviderClient({}), userPoolId: requireEnv(process.env, ENV.userPoolId), log: (line) => console.error(line) }),
    runner: NO_JOB_RUNNER,
    loadTableOfContents: NO_TABLE_OF_CONTENTS,
  }),
);
