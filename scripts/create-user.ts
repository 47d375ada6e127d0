// `npm run create-user -- --email qa@example.com`: gives someone a CTPO account in the deployed
// Cognito user pool, with a permanent password (no "change your password" step at first sign-in).
// Safe to run twice: an existing user keeps the account and gets the new password. The pool is read
// from the stack's outputs unless --user-pool-id names it. The password is never printed.
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';

export const DEFAULT_STACK_NAME = 'Ctpo';
export const DEFAULT_REGION = 'ca-central-1';

const HELP = `Usage: npm run create-user -- --email <address> [--password <password>] [options]

Creates a CTPO user in the deployed Cognito user pool, or sets a new password for an existing one.
Without --password the password is asked for (hidden), which keeps it out of the shell history.

  --email <address>       the user's e-mail; they sign in with it
  --password <password>   at least 12 characters with upper and lower case, a digit and a symbol
  --user-pool-id <id>     the pool (default: the UserPoolId output of the stack)
  --stack-name <name>     the CTPO stack (default: $CTPO_STACK_NAME or ${DEFAULT_STACK_NAME})
  --region <region>       where the stack lives (default: ${DEFAULT_REGION})
  --help                  this text

AWS credentials come from the usual places (AWS_PROFILE, environment, SSO, instance role).
`;

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CreateUserOptions {
  email: string;
  password: string;
  userPoolId?: string;
  stackName: string;
  region: string;
}

export interface CreateUserClients {
  cognito: CognitoIdentityProviderClient;
  cloudFormation: CloudFormationClient;
}

export interface CreateUserResult {
  created: boolean;
  userPoolId: string;
  /** The site's address, when the stack says it. */
  siteUrl?: string;
}

// Deliberately loose: Cognito checks the address itself; this only catches obvious slips.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The pool's password policy (infra/lib/identity.ts), checked here so a mistake costs no AWS call. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 12) problems.push('at least 12 characters');
  if (!/[a-z]/.test(password)) problems.push('a lower-case letter');
  if (!/[A-Z]/.test(password)) problems.push('an upper-case letter');
  if (!/[0-9]/.test(password)) problems.push('a digit');
  if (!/[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+-]/.test(password)) problems.push('a symbol');
  return problems;
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

async function stackOutputs(client: CloudFormationClient, stackName: string, region: string): Promise<Record<string, string>> {
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    return Object.fromEntries((Stacks?.[0]?.Outputs ?? []).flatMap((output) => (output.OutputKey && output.OutputValue ? [[output.OutputKey, output.OutputValue]] : [])));
  } catch (error) {
    if (errorName(error) === 'ValidationError') {
      throw new UsageError(`There is no stack ${stackName} in ${region}. Deploy CTPO first (npm run cdk -- deploy), or name the pool with --user-pool-id.`);
    }
    throw error;
  }
}

export async function createUser(options: CreateUserOptions, clients: CreateUserClients): Promise<CreateUserResult> {
  const email = options.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new UsageError(`"${options.email}" is not an e-mail address.`);
  const problems = passwordProblems(options.password);
  if (problems.length > 0) throw new UsageError(`The password needs ${problems.join(', ')}.`);

  let userPoolId = options.userPoolId;
  let siteUrl: string | undefined;
  if (userPoolId === undefined) {
    const outputs = await stackOutputs(clients.cloudFormation, options.stackName, options.region);
    userPoolId = outputs.UserPoolId;
    siteUrl = outputs.SiteUrl;
    if (userPoolId === undefined) {
      throw new UsageError(`The stack ${options.stackName} has no UserPoolId output: is it the CTPO stack? Name the pool with --user-pool-id.`);
    }
  }

  let created = false;
  try {
    await clients.cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
  } catch (error) {
    if (errorName(error) !== 'UserNotFoundException') throw error;
    // No invitation e-mail: the operator hands the password over themselves.
    await clients.cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: email,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    created = true;
  }
  if (!created) {
    // An account made some other way may lack a verified address, which password reset needs.
    await clients.cognito.send(
      new AdminUpdateUserAttributesCommand({ UserPoolId: userPoolId, Username: email, UserAttributes: [{ Name: 'email_verified', Value: 'true' }] }),
    );
  }

  try {
    // Permanent: the user signs in with it directly, without the FORCE_CHANGE_PASSWORD step.
    await clients.cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: email, Password: options.password, Permanent: true }));
  } catch (error) {
    if (errorName(error) === 'InvalidPasswordException') {
      // Cognito's own message names the rule; it never repeats the password.
      throw new UsageError(`Cognito refused the password: ${error instanceof Error ? error.message : 'it does not meet the policy'}`);
    }
    throw error;
  }
  return { created, userPoolId, ...(siteUrl === undefined ? {} : { siteUrl }) };
}

/** Reads a password without echoing it (a terminal), or one line of piped input. */
export async function readPassword(input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown }, output: NodeJS.WritableStream, prompt: string): Promise<string> {
  output.write(prompt);
  if (input.isTTY !== true || input.setRawMode === undefined) {
    let text = '';
    for await (const chunk of input) {
      text += String(chunk);
      if (text.includes('\n')) break;
    }
    return text.split(/\r?\n/)[0] ?? '';
  }
  const setRawMode = input.setRawMode.bind(input);
  setRawMode(true);
  input.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (chunk: Buffer | string): void => {
        for (const character of String(chunk)) {
          if (character === '\r' || character === '\n') {
            input.off('data', onData);
            output.write('\n');
            resolve(typed);
            return;
          }
          if (character === '\u0003') {
            input.off('data', onData);
            output.write('\n');
            reject(new UsageError('Cancelled.'));
            return;
          }
          if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
          else typed += character;
        }
      };
      input.on('data', onData);
    });
  } finally {
    setRawMode(false);
    input.pause();
  }
}

export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Readonly<Record<string, string | undefined>>;
  clients?: (region: string) => CreateUserClients;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        'user-pool-id': { type: 'string' },
        'stack-name': { type: 'string' },
        region: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return 2;
  }
  if (values.help === true) {
    io.stdout.write(HELP);
    return 0;
  }
  if (values.email === undefined) {
    io.stderr.write(`--email is required.\n\n${HELP}`);
    return 2;
  }

  try {
    let password = values.password;
    if (password === undefined) {
      password = await readPassword(io.stdin, io.stderr, `Password for ${values.email}: `);
      const problems = passwordProblems(password);
      if (problems.length > 0) throw new UsageError(`The password needs ${problems.join(', ')}.`);
      if (io.stdin.isTTY === true) {
        const again = await readPassword(io.stdin, io.stderr, 'The same password again: ');
        if (again !== password) throw new UsageError('The two passwords differ.');
      }
    }
    const region = values.region ?? DEFAULT_REGION;
    const clients = io.clients?.(region) ?? {
      cognito: new CognitoIdentityProviderClient({ region }),
      cloudFormation: new CloudFormationClient({ region }),
    };
    const result = await createUser(
      {
        email: values.email,
        password,
        ...(values['user-pool-id'] === undefined ? {} : { userPoolId: values['user-pool-id'] }),
        stackName: values['stack-name'] ?? io.env.CTPO_STACK_NAME ?? DEFAULT_STACK_NAME,
        region,
      },
      clients,
    );
    const email = values.email.trim().toLowerCase();
    io.stdout.write(
      result.created
        ? `Created ${email} in ${result.userPoolId}; they can sign in now.\n`
        : `${email} already had an account in ${result.userPoolId}; its password is now the one given.\n`,
    );
    if (result.siteUrl !== undefined) io.stdout.write(`Sign in at ${result.siteUrl}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n`);
      return 2;
    }
    const name = errorName(error);
    if (name === 'CredentialsProviderError' || name === 'ExpiredTokenException' || name === 'UnrecognizedClientException') {
      io.stderr.write(`No usable AWS credentials (${name}). Sign in to AWS first, e.g. \`aws sso login\` or set AWS_PROFILE.\n`);
      return 1;
    }
    io.stderr.write(`Could not create the user: ${name ?? 'error'}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
}
