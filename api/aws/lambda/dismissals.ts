// Lambda entry for GET, PUT and DELETE /api/dismissals: the caller's dismissed findings of a course,
// recorded under their e-mail from the user pool.
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { handleDismissals } from '../../http/history-routes.ts';
import { dismissalStoreFromEnv } from '../aws-deps.ts';
import { ENV, requireEnv } from '../settings.ts';
import { cognitoNameOf } from '../user-directory.ts';
import { NO_JOB_RUNNER, NO_JOB_STORE, NO_TABLE_OF_CONTENTS, apiDepsFromEnv, lambdaHandlerOf } from './http-lambda.ts';

export const handler = lambdaHandlerOf(
  handleDismissals,
  apiDepsFromEnv(process.env, {
    jobs: NO_JOB_STORE,
    dismissals: dismissalStoreFromEnv(process.env),
    nameOf: cognitoNameOf({ client: new CognitoIdentityProviderClient({}), userPoolId: requireEnv(process.env, ENV.userPoolId), log: (line) => console.error(line) }),
    runner: NO_JOB_RUNNER,
    loadTableOfContents: NO_TABLE_OF_CONTENTS,
  }),
);
