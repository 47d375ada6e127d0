// Who a caller is, in words a report can show: Cognito access tokens carry the user's `sub` and
// user name (a generated id when people sign in with their e-mail), not the e-mail itself, so a
// dismissal looks the e-mail up in the user pool once per user and function instance.
import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { Caller } from '../http/access-token.ts';

export function cognitoNameOf(options: { client: CognitoIdentityProviderClient; userPoolId: string; log?: (line: string) => void }): (caller: Caller) => Promise<string> {
  const names = new Map<string, string>();
  return async (caller) => {
    const known = names.get(caller.sub);
    if (known !== undefined) return known;
    try {
      const answer = await options.client.send(new AdminGetUserCommand({ UserPoolId: options.userPoolId, Username: caller.username }));
      const email = answer.UserAttributes?.find((attribute) => attribute.Name === 'email')?.Value;
      const name = email !== undefined && email !== '' ? email : caller.username;
      names.set(caller.sub, name);
      return name;
    } catch (error) {
      // The dismissal still counts; it is recorded under the token's user name instead.
      options.log?.(`looking up user ${caller.sub} failed: ${error instanceof Error ? error.name : 'unknown error'}`);
      return caller.username;
    }
  };
}
