// Who a dismissal is recorded under on AWS: the caller's e-mail from the user pool (the SDK is
// faked at its boundary), looked up once per user, and the token's user name when the lookup fails.
import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { cognitoNameOf } from '../../../api/aws/user-directory.ts';

const cognito = mockClient(CognitoIdentityProviderClient);
afterEach(() => cognito.reset());

const caller = { sub: '7f3c5a1e-0000-4000-8000-000000000001', username: '7f3c5a1e-0000-4000-8000-000000000001' };

describe('the name of a dismissal on AWS', () => {
  it('is the user’s e-mail in the pool, asked once per user', async () => {
    cognito.on(AdminGetUserCommand).resolves({ Username: caller.username, UserAttributes: [{ Name: 'sub', Value: caller.sub }, { Name: 'email', Value: 'qa@school.example' }] });
    const nameOf = cognitoNameOf({ client: new CognitoIdentityProviderClient({ region: 'ca-central-1' }), userPoolId: 'ca-central-1_AbC123xyz' });
    expect(await nameOf(caller)).toBe('qa@school.example');
    expect(await nameOf(caller)).toBe('qa@school.example');
    expect(cognito.commandCalls(AdminGetUserCommand)).toHaveLength(1);
    expect(cognito.commandCalls(AdminGetUserCommand)[0]!.args[0].input).toEqual({ UserPoolId: 'ca-central-1_AbC123xyz', Username: caller.username });
  });

  it('is the token’s user name when the pool cannot say, and the lookup is tried again next time', async () => {
    const logged: string[] = [];
    cognito.on(AdminGetUserCommand).rejectsOnce(Object.assign(new Error('throttled'), { name: 'TooManyRequestsException' })).resolves({ UserAttributes: [] });
    const nameOf = cognitoNameOf({ client: new CognitoIdentityProviderClient({ region: 'ca-central-1' }), userPoolId: 'ca-central-1_AbC123xyz', log: (line) => logged.push(line) });
    expect(await nameOf(caller)).toBe(caller.username);
    expect(logged).toEqual([`looking up user ${caller.sub} failed: TooManyRequestsException`]);
    // A user without an e-mail attribute is named by the user name too.
    expect(await nameOf(caller)).toBe(caller.username);
    expect(cognito.commandCalls(AdminGetUserCommand)).toHaveLength(2);
  });
});
