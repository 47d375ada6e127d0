import { PassThrough, Writable } from 'node:stream';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  InvalidPasswordException,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main, passwordProblems, readPassword } from '../../scripts/create-user.ts';

const POOL = 'ca-central-1_AbC123xyz';
const PASSWORD = 'Correct-Horse-9-Battery';

function sink(): Writable & { text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return Object.assign(stream, { text: () => text });
}

describe('npm run create-user', () => {
  let cognito: CognitoIdentityProviderClient;
  let cloudFormation: CloudFormationClient;
  let cognitoMock: ReturnType<typeof mockClient>;
  let cloudFormationMock: ReturnType<typeof mockClient>;
  let stdout: ReturnType<typeof sink>;
  let stderr: ReturnType<typeof sink>;
  let regions: string[];

  const run = (argv: string[], stdin: NodeJS.ReadableStream & { isTTY?: boolean } = new PassThrough(), env: Record<string, string> = {}) =>
    main(argv, {
      stdin,
      stdout,
      stderr,
      env,
      clients: (region) => {
        regions.push(region);
        return { cognito, cloudFormation };
      },
    });

  beforeEach(() => {
    cognito = new CognitoIdentityProviderClient({ region: 'ca-central-1' });
    cloudFormation = new CloudFormationClient({ region: 'ca-central-1' });
    cognitoMock = mockClient(cognito);
    cloudFormationMock = mockClient(cloudFormation);
    stdout = sink();
    stderr = sink();
    regions = [];
    cloudFormationMock.on(DescribeStacksCommand, { StackName: 'Ctpo' }).resolves({
      Stacks: [
        {
          StackName: 'Ctpo',
          CreationTime: new Date(),
          StackStatus: 'CREATE_COMPLETE',
          Outputs: [
            { OutputKey: 'UserPoolId', OutputValue: POOL },
            { OutputKey: 'SiteUrl', OutputValue: 'https://d111111abcdef8.cloudfront.net/' },
          ],
        },
      ],
    });
    cognitoMock.on(AdminSetUserPasswordCommand).resolves({});
    cognitoMock.on(AdminCreateUserCommand).resolves({});
    cognitoMock.on(AdminUpdateUserAttributesCommand).resolves({});
  });
  afterEach(() => {
    cognitoMock.restore();
    cloudFormationMock.restore();
  });

  it('creates a user in the stack’s pool with a verified e-mail and a permanent password', async () => {
    cognitoMock.on(AdminGetUserCommand).rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    expect(await run(['--email', 'QA@Example.com', '--password', PASSWORD])).toBe(0);
    expect(regions).toEqual(['ca-central-1']);
    expect(cognitoMock.commandCalls(AdminCreateUserCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL,
      Username: 'qa@example.com',
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: 'qa@example.com' },
        { Name: 'email_verified', Value: 'true' },
      ],
    });
    expect(cognitoMock.commandCalls(AdminSetUserPasswordCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL,
      Username: 'qa@example.com',
      Password: PASSWORD,
      Permanent: true,
    });
    expect(stdout.text()).toBe(`Created qa@example.com in ${POOL}; they can sign in now.\nSign in at https://d111111abcdef8.cloudfront.net/\n`);
    expect(stdout.text() + stderr.text()).not.toContain(PASSWORD);
  });

  it('is safe to run twice: an existing user keeps the account and gets the new password', async () => {
    cognitoMock.on(AdminGetUserCommand).resolves({ Username: 'qa@example.com' });
    expect(await run(['--email', 'qa@example.com', '--password', PASSWORD])).toBe(0);
    expect(cognitoMock.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
    expect(cognitoMock.commandCalls(AdminSetUserPasswordCommand)).toHaveLength(1);
    expect(cognitoMock.commandCalls(AdminUpdateUserAttributesCommand)[0]?.args[0].input.UserAttributes).toEqual([{ Name: 'email_verified', Value: 'true' }]);
    expect(stdout.text()).toMatch(/^qa@example.com already had an account/);
  });

  it('uses the pool it is given, and another stack or region when asked', async () => {
    cognitoMock.on(AdminGetUserCommand).rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    expect(await run(['--email', 'qa@example.com', '--password', PASSWORD, '--user-pool-id', 'ca-central-1_Other1'])).toBe(0);
    expect(cloudFormationMock.commandCalls(DescribeStacksCommand)).toHaveLength(0);
    expect(cognitoMock.commandCalls(AdminSetUserPasswordCommand)[0]?.args[0].input.UserPoolId).toBe('ca-central-1_Other1');

    cloudFormationMock.on(DescribeStacksCommand, { StackName: 'CtpoStaging' }).resolves({
      Stacks: [{ StackName: 'CtpoStaging', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE', Outputs: [{ OutputKey: 'UserPoolId', OutputValue: 'us-east-1_Staging9' }] }],
    });
    expect(await run(['--email', 'qa@example.com', '--password', PASSWORD, '--region', 'us-east-1'], new PassThrough(), { CTPO_STACK_NAME: 'CtpoStaging' })).toBe(0);
    expect(regions.at(-1)).toBe('us-east-1');
    expect(cognitoMock.commandCalls(AdminSetUserPasswordCommand).at(-1)?.args[0].input.UserPoolId).toBe('us-east-1_Staging9');
  });

  it('says to deploy first when the stack is not there', async () => {
    cloudFormationMock.on(DescribeStacksCommand, { StackName: 'Missing' }).rejects(Object.assign(new Error('Stack with id Missing does not exist'), { name: 'ValidationError' }));
    expect(await run(['--email', 'qa@example.com', '--password', PASSWORD, '--stack-name', 'Missing'])).toBe(2);
    expect(stderr.text()).toMatch(/There is no stack Missing in ca-central-1\. Deploy CTPO first/);
    expect(cognitoMock.calls()).toHaveLength(0);
  });

  it('refuses a weak password before calling AWS, and reports Cognito’s refusal without the password', async () => {
    expect(await run(['--email', 'qa@example.com', '--password', 'short'])).toBe(2);
    expect(stderr.text()).toMatch(/The password needs at least 12 characters, an upper-case letter, a digit, a symbol\./);
    expect(cognitoMock.calls()).toHaveLength(0);

    cognitoMock.on(AdminGetUserCommand).resolves({});
    cognitoMock.on(AdminSetUserPasswordCommand).rejects(new InvalidPasswordException({ message: 'Password does not conform to policy: Password has been used before', $metadata: {} }));
    expect(await run(['--email', 'qa@example.com', '--password', PASSWORD])).toBe(2);
    expect(stderr.text()).toMatch(/Cognito refused the password: Password does not conform to policy/);
    expect(stderr.text()).not.toContain(PASSWORD);
  });

  it('reads the password from standard input when it is not on the command line', async () => {
    cognitoMock.on(AdminGetUserCommand).rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    const stdin = new PassThrough();
    stdin.end(`${PASSWORD}\n`);
    expect(await run(['--email', 'qa@example.com'], stdin)).toBe(0);
    expect(cognitoMock.commandCalls(AdminSetUserPasswordCommand)[0]?.args[0].input.Password).toBe(PASSWORD);
    expect(stderr.text()).toBe('Password for qa@example.com: ');
  });

  it('explains its usage on a missing e-mail, a bad one, or an unknown option', async () => {
    expect(await run(['--password', PASSWORD])).toBe(2);
    expect(stderr.text()).toMatch(/--email is required[\s\S]*Usage: npm run create-user/);
    expect(await run(['--email', 'not-an-address', '--password', PASSWORD])).toBe(2);
    expect(stderr.text()).toMatch(/"not-an-address" is not an e-mail address/);
    expect(await run(['--email', 'qa@example.com', '--pasword', PASSWORD])).toBe(2);
    expect(stderr.text()).not.toContain(PASSWORD);
    expect(await run(['--help'])).toBe(0);
    expect(stdout.text()).toMatch(/--user-pool-id/);
    expect(cognitoMock.calls()).toHaveLength(0);
  });

  it('names missing AWS credentials plainly', async () => {
    cloudFormationMock.on(DescribeStacksCommand).rejects(Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }));
    expect(await run(['--email', 'qa@example.com', '--password', PASSWORD])).toBe(1);
    expect(stderr.text()).toMatch(/No usable AWS credentials \(CredentialsProviderError\)/);
  });
});

describe('the password prompt on a terminal', () => {
  it('reads until Enter without echoing, honouring backspace', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, modes: [] as boolean[], setRawMode(mode: boolean) { this.modes.push(mode); } });
    const out = sink();
    const reading = readPassword(stdin, out, 'Password: ');
    stdin.write('Secrex');
    stdin.write('\u007ft\r');
    expect(await reading).toBe('Secret');
    expect(out.text()).toBe('Password: \n');
    expect(stdin.modes).toEqual([true, false]);
  });

  it('checks the pool’s password policy', () => {
    expect(passwordProblems(PASSWORD)).toEqual([]);
    expect(passwordProblems('alllowercase-1')).toEqual(['an upper-case letter']);
  });
});
